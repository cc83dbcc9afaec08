#!/usr/bin/env python3
"""A well-behaved TSG AUTO CHESS bot: prints its name, reads every prompt in full, and answers
at once with a legal reply in the strict grammar: it buys the cheapest affordable unit onto a
free cell near its king while it has room, evolves three of a kind, and walks its army one step
towards the enemy king. It stops cleanly at end of input or on input it cannot read.

With `--on-bad-input crash|report|skip` it meets input it cannot read by dying of the unhandled
error (a traceback), by saying `bad input` and exiting 2, or by answering `nop` and reading on."""
import sys

BOARD = 15
INT_MAX = 2**31 - 1


def line():
    text = sys.stdin.readline()
    if not text:
        raise EOFError
    if not text.endswith("\n"):
        # Input cut inside a line: the end of the input, not a line to read.
        raise EOFError
    return text[:-1]


def numbers(count, lo=0, hi=INT_MAX):
    words = line().split()
    if len(words) != count:
        raise ValueError(f"{count} numbers expected")
    values = [int(w) for w in words]
    if any(not lo <= v <= hi for v in values):
        raise ValueError(f"a number out of {lo}..{hi}")
    return values


def units():
    (count,) = numbers(1, 0, BOARD * BOARD)
    read = []
    for _ in range(count):
        words = line().split()
        if len(words) != 6 or words[1] not in ("KING", "ASSASSIN", "WARRIOR", "MAGE"):
            raise ValueError("a unit line expected")
        uid, hp, atk, x, y = (int(w) for w in (words[0], *words[2:]))
        if not (0 <= x < BOARD and 0 <= y < BOARD and hp > 0):
            raise ValueError("a unit off the board or dead")
        read.append({"id": uid, "type": words[1], "hp": hp, "atk": atk, "x": x, "y": y})
    return read


def prompt():
    (turn,) = numbers(1, 0, 999)
    numbers(1, 0, 180000)  # time left
    level, _ = numbers(2, 1)
    gold, _ = numbers(2)
    shop = []
    for _ in range(3):
        words = line().split()
        if len(words) != 5:
            raise ValueError("a shop line expected")
        uid, _hp, _atk, price = (int(w) for w in (words[0], *words[2:]))
        shop.append({"id": uid, "type": words[1], "price": price})
    return turn, level, gold, shop, units(), units()


def reply(level, gold, shop, own, enemy):
    king = next((u for u in own if u["type"] == "KING"), None)
    target = next((u for u in enemy if u["type"] == "KING"), {"x": 7, "y": 14})
    taken = {(u["x"], u["y"]) for u in own + enemy}
    army = [u for u in own if u["type"] != "KING"]
    command = "nop"
    kinds = {}
    for u in army:
        kinds.setdefault(u["type"], []).append(u["id"])
    triple = next((ids[:3] for ids in kinds.values() if len(ids) >= 3), None)
    affordable = sorted((s for s in shop if s["price"] <= gold), key=lambda s: s["price"])
    if triple:
        command = "evolve " + " ".join(map(str, triple))
    elif king and affordable and len(army) < 2 + level:
        free = [(x, y) for y in range(king["y"] - 3, king["y"] + 4)
                for x in range(king["x"] - 3, king["x"] + 4)
                if 0 <= x < BOARD and 0 <= y < BOARD and (x, y) not in taken]
        if free:
            free.sort(key=lambda c: abs(c[0] - target["x"]) + abs(c[1] - target["y"]))
            x, y = free[0]
            command = f"buy {affordable[0]['id']} {x} {y}"
    moves = []
    for u in army:
        dx = (target["x"] > u["x"]) - (target["x"] < u["x"])
        dy = (target["y"] > u["y"]) - (target["y"] < u["y"])
        if (dx or dy) and max(abs(target["x"] - u["x"]), abs(target["y"] - u["y"])) > 1:
            moves.append(f"{u['id']} {u['x'] + dx} {u['y'] + dy}")
    return "\n".join([command, str(len(moves)), *moves])


def main():
    mode = sys.argv[2] if sys.argv[1:2] == ["--on-bad-input"] else None
    print("well behaved", flush=True)
    while True:
        try:
            _, level, gold, shop, own, enemy = prompt()
        except EOFError:
            return 0
        except ValueError as e:
            if mode == "crash":
                raise
            if mode == "report":
                print("bad input", file=sys.stderr)
                return 2
            if mode == "skip":
                print("nop\n0", flush=True)
                continue
            print(f"unreadable prompt: {e}", file=sys.stderr)
            return 0
        print(reply(level, gold, shop, own, enemy), flush=True)


if __name__ == "__main__":
    sys.exit(main())
