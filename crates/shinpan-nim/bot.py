#!/usr/bin/env python3
"""A Nim bot for shinpan's tests: takes one object from the first heap that has any. With
`--on-bad-input crash|report|skip` it meets a prompt it cannot read by dying of the unhandled
error (a traceback), by saying `bad input` and exiting 2, or by reading the numbers it can and
moving anyway; by default it skips the line."""
import sys

ON_BAD_INPUT = sys.argv[2] if sys.argv[1:2] == ["--on-bad-input"] else "default"


def heaps_of(line):
    """The heaps of a prompt, its first number (their count) read and dropped."""
    tokens = line.split()
    try:
        return [int(t) for t in tokens][1:]
    except ValueError:
        if ON_BAD_INPUT == "crash":
            raise
        if ON_BAD_INPUT == "report":
            print("bad input", file=sys.stderr, flush=True)
            sys.exit(2)
        if ON_BAD_INPUT == "skip":
            return [int(t) if t.isdigit() else 0 for t in tokens][1:]
        return None


for line in sys.stdin:
    heaps = heaps_of(line)
    if heaps is None:
        continue
    heap = next((i for i, n in enumerate(heaps) if n > 0), 0)
    print(f"{heap} 1", flush=True)
