#!/usr/bin/env python3
"""A well-behaved CODE VS Reborn bot: prints its name, reads every prompt in full, answers a
legal move at once, and stops cleanly at end of input or on input it cannot read.

With the argument `--think MS N` it thinks MS milliseconds before each of its first N replies
(for tests of how a match waits for two bots)."""
import sys
import time

WIDTH, HEIGHT, PACKS = 10, 16, 500


def line():
    text = sys.stdin.readline()
    if not text:
        raise EOFError
    return text.strip()


def number(lo, hi):
    value = int(line())
    if not lo <= value <= hi:
        raise ValueError(f"{value} not in {lo}..{hi}")
    return value


def player():
    time_left = number(0, 180000)
    number(0, 2**32 - 1)  # ojama stock
    gauge = number(0, 100)
    number(0, 2**64 - 1)  # score
    for _ in range(HEIGHT):
        cells = [int(c) for c in line().split()]
        if len(cells) != WIDTH:
            raise ValueError("a field row needs 10 cells")
    if line() != "END":
        raise ValueError("END expected")
    return time_left, gauge


def main():
    think_ms, think_turns = 0, 0
    if len(sys.argv) == 4 and sys.argv[1] == "--think":
        think_ms, think_turns = int(sys.argv[2]), int(sys.argv[3])
    print("well behaved", flush=True)
    first = True
    while True:
        try:
            if first:
                for _ in range(PACKS):
                    line(), line()
                    if line() != "END":
                        raise ValueError("END expected after a pack")
                first = False
            turn = number(0, 499)
            _, gauge = player()
            player()
        except EOFError:
            return 0
        except ValueError as e:
            print(f"unreadable prompt: {e}", file=sys.stderr)
            return 0
        answer = "S" if gauge >= 80 else f"{turn % 9} {turn % 4}"
        if turn < think_turns:
            time.sleep(think_ms / 1000)
        print(answer, flush=True)


if __name__ == "__main__":
    sys.exit(main())
