#!/usr/bin/env python3
"""A simple Spring Challenge 2022 bot: reads the start block, then each turn's prompt, and sends
three lines. Each hero goes for the mob nearest to its base that threatens it (else holds a
post in front of the base); with mana, a hero next to a mob close to home blows it away.

It stops at input it cannot read; with `--on-bad-input crash|report|skip` it dies of the
unhandled error instead (a traceback), says `bad input` and exits 2, or skips that line and
answers anyway."""
import math
import sys


MODE = sys.argv[2] if sys.argv[1:2] == ["--on-bad-input"] else None


def read_ints(line):
    return [int(t) for t in line.split()]


def read_or_skip(line):
    """The numbers of `line`; None for a line `--on-bad-input skip` reads past."""
    try:
        return read_ints(line)
    except ValueError:
        if MODE in (None, "crash"):
            raise
        if MODE == "report":
            print("bad input", file=sys.stderr)
            sys.exit(2)
        return None


def main():
    lines = iter(sys.stdin.readline, "")
    try:
        base_x, base_y = read_ints(next(lines))
        heroes_per_player = int(next(lines))
    except StopIteration:
        return
    except ValueError:
        if MODE == "crash":
            raise
        if MODE == "report":
            print("bad input", file=sys.stderr)
            sys.exit(2)
        return
    if not 1 <= heroes_per_player <= 10:
        return
    sign = 1 if base_x == 0 else -1
    enemy = (17630 - base_x, 9000 - base_y)
    posts = [(base_x + sign * int(4500 * math.cos(a)), base_y + sign * int(4500 * math.sin(a)))
             for a in (0.3, 0.8, 1.3)]
    while True:
        try:
            own = read_or_skip(next(lines))
            next(lines)
            count = read_or_skip(next(lines))
            count = count[0] if count else 0
            entities = [read_or_skip(next(lines)) for _ in range(count)]
        except StopIteration:
            return
        except ValueError:
            if MODE == "crash":
                raise
            return
        mana = own[1] if own and len(own) > 1 else 0
        entities = [e for e in entities if e is not None and len(e) >= 11]
        mine = [e for e in entities if e[1] == 1][:heroes_per_player]
        mobs = [e for e in entities if e[1] == 0]
        threats = sorted(
            (m for m in mobs if m[10] == 1),
            key=lambda m: (m[2] - base_x) ** 2 + (m[3] - base_y) ** 2,
        )
        out = []
        for i, hero in enumerate(mine):
            _, _, x, y = hero[:4]
            target = threats[i % len(threats)] if threats else None
            if target is not None:
                tx, ty = target[2], target[3]
                near_home = (tx - base_x) ** 2 + (ty - base_y) ** 2 < 3000 ** 2
                close = (tx - x) ** 2 + (ty - y) ** 2 <= 1280 ** 2
                if mana >= 10 and near_home and close and target[4] == 0:
                    out.append("SPELL WIND %d %d" % enemy)
                    mana -= 10
                else:
                    out.append("MOVE %d %d" % (tx, ty))
            else:
                out.append("MOVE %d %d" % posts[i % len(posts)])
        while len(out) < heroes_per_player:
            out.append("WAIT")
        print("\n".join(out), flush=True)


if __name__ == "__main__":
    main()
