#!/usr/bin/env python3
"""A small, well-behaved CODE VS 4.0 bot: prints its name, then for every input (up to `END`)
prints a count and that many `id command` lines. Workers walk to the nearest resource cell in
sight and stay there, the castle makes workers while there is little to do, a worker builds one
base once the player is rich, bases make fighters, and fighters march on the enemy's corner.

An input it cannot read it meets, with `--on-bad-input crash|report|skip`, by dying of the
unhandled error (a traceback), by saying `bad input` and exiting 2 (the default), or by giving
no orders that turn and reading on. With `--sleep-at STAGE:MS` it sleeps MS ms before answering
the first input of stage STAGE it reads (to spend its thinking time on purpose). With
`--trust-cell-order` it relies on the resource cells coming by y, then x (shinpan's own order,
which D-codevs4-13 says nothing may depend on): cells in any other order make it exit 3."""
import sys
import time

WORKER, KNIGHT, FIGHTER, ASSASSIN, CASTLE, VILLAGE, BASE = range(7)
COST = {WORKER: 40, KNIGHT: 20, FIGHTER: 40, ASSASSIN: 60, VILLAGE: 100, BASE: 500}


def read_units(lines, i):
    count = int(lines[i])
    units = [tuple(int(v) for v in lines[i + 1 + k].split()) for k in range(count)]
    return units, i + 1 + count


def step_towards(y, x, ty, tx):
    if tx > x:
        return "R"
    if tx < x:
        return "L"
    if ty > y:
        return "D"
    if ty < y:
        return "U"
    return None


def decide(lines):
    resources = int(lines[3])
    own, i = read_units(lines, 4)
    _enemies, i = read_units(lines, i)
    count = int(lines[i])
    cells = [tuple(int(v) for v in lines[i + 1 + k].split()) for k in range(count)]
    if "--trust-cell-order" in sys.argv and cells != sorted(cells):
        print(f"resource cells out of (y, x) order: {cells}", file=sys.stderr)
        sys.exit(3)
    castle = next(((y, x) for (_, y, x, _, t) in own if t == CASTLE), (0, 0))
    # The enemy is in the far corner from our castle.
    target = (99, 99) if castle[0] + castle[1] < 99 else (0, 0)
    workers = sum(1 for u in own if u[4] == WORKER)
    has_base = any(u[4] == BASE for u in own)
    orders = []
    taken = {}
    for uid, y, x, _hp, kind in own:
        if kind == WORKER:
            if not has_base and resources >= COST[BASE] + 100 and (y, x) not in taken:
                orders.append(f"{uid} 6")
                resources -= COST[BASE]
                has_base = True
                continue
            free = [c for c in cells if taken.get(c, 0) < 5]
            if free:
                ty, tx = min(free, key=lambda c: (abs(c[0] - y) + abs(c[1] - x), c))
                taken[(ty, tx)] = taken.get((ty, tx), 0) + 1
                move = step_towards(y, x, ty, tx)
            else:
                move = "RDLU"[(uid + y + x) % 4]
            if move:
                orders.append(f"{uid} {move}")
        elif kind in (KNIGHT, FIGHTER, ASSASSIN):
            move = step_towards(y, x, *target)
            if move:
                orders.append(f"{uid} {move}")
        elif kind in (CASTLE, VILLAGE):
            if workers < 20 and resources >= COST[WORKER]:
                orders.append(f"{uid} 0")
                resources -= COST[WORKER]
                workers += 1
        elif kind == BASE:
            if resources >= COST[FIGHTER]:
                orders.append(f"{uid} 2")
                resources -= COST[FIGHTER]
    return orders


def option(name, default):
    args = sys.argv[1:]
    return args[args.index(name) + 1] if name in args[:-1] else default


def main():
    mode = option("--on-bad-input", "report")
    sleep_stage, _, sleep_ms = option("--sleep-at", "-1:0").partition(":")
    print("shinpan_codevs4_bot", flush=True)
    block = []
    for text in sys.stdin:
        line = text.strip()
        if line != "END":
            block.append(line)
            continue
        if block[1:2] == [sleep_stage]:
            time.sleep(int(sleep_ms) / 1000)
            sleep_stage = None
        try:
            orders = decide(block)
        except (ValueError, IndexError):
            if mode == "crash":
                raise
            if mode == "report":
                print("bad input", file=sys.stderr)
                sys.exit(2)
            orders = []
        block = []
        sys.stdout.write("\n".join([str(len(orders))] + orders) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
