#!/usr/bin/env python3
"""A well-behaved CODE VS Reborn bot: prints its name, reads every prompt in full, answers a
legal move at once, and stops cleanly at end of input or on input it cannot read.

With `--think MS N` it thinks MS milliseconds before each of its first N replies (for tests of
how a match waits for two bots). With `--on-bad-input crash|report|skip` it meets a prompt it
cannot read by dying of the unhandled error (a traceback), by saying `bad input` and exiting 2,
or by reading what it can and answering anyway; the default says what it could not read and
exits 0."""
import sys
import time

WIDTH, HEIGHT, PACKS = 10, 16, 500


ON_BAD_INPUT = "default"


def integer(text):
    try:
        return int(text)
    except ValueError:
        if ON_BAD_INPUT == "skip":
            return 0
        raise


def line():
    text = sys.stdin.readline()
    if not text:
        raise EOFError
    return text.strip()


def number(lo, hi):
    value = integer(line())
    if ON_BAD_INPUT == "skip":
        return min(max(value, lo), hi)
    if not lo <= value <= hi:
        raise ValueError(f"{value} not in {lo}..{hi}")
    return value


def player():
    time_left = number(0, 180000)
    number(0, 2**32 - 1)  # ojama stock
    gauge = number(0, 100)
    number(0, 2**64 - 1)  # score
    for _ in range(HEIGHT):
        cells = [integer(c) for c in line().split()]
        if len(cells) != WIDTH and ON_BAD_INPUT != "skip":
            raise ValueError("a field row needs 10 cells")
    if line() != "END" and ON_BAD_INPUT != "skip":
        raise ValueError("END expected")
    return time_left, gauge


def main():
    global ON_BAD_INPUT
    think_ms, think_turns = 0, 0
    args = sys.argv[1:]
    if args[:1] == ["--think"]:
        think_ms, think_turns = int(args[1]), int(args[2])
    if args[:1] == ["--on-bad-input"]:
        ON_BAD_INPUT = args[1]
    print("well behaved", flush=True)
    first = True
    while True:
        try:
            if first:
                for _ in range(PACKS):
                    for _ in range(2):
                        [integer(c) for c in line().split()]
                    if line() != "END" and ON_BAD_INPUT != "skip":
                        raise ValueError("END expected after a pack")
                first = False
            turn = number(0, 499)
            _, gauge = player()
            player()
        except EOFError:
            return 0
        except ValueError as e:
            if ON_BAD_INPUT == "crash":
                raise
            if ON_BAD_INPUT == "report":
                print("bad input", file=sys.stderr)
                return 2
            print(f"unreadable prompt: {e}", file=sys.stderr)
            return 0
        answer = "S" if gauge >= 80 else f"{turn % 9} {turn % 4}"
        if turn < think_turns:
            time.sleep(think_ms / 1000)
        print(answer, flush=True)


if __name__ == "__main__":
    sys.exit(main())
