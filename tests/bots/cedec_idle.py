#!/usr/bin/env python3
"""A well-behaved, idle CEDEC 2013 bot: reads every request in full, gives its name in round 0
and ends every later turn at once with `finish`.

With `--on-bad-input crash|report|skip` it reads every number of a request and meets one it
cannot read by dying of the unhandled error (a traceback), by saying `bad input` and exiting 2,
or by skipping that line and answering anyway."""
import sys


def check_numbers(block, mode):
    """Reads the numbers of every tile line (x y owner robots resources ...)."""
    for text in block[3:-1]:
        try:
            [int(v) for v in text.split()[:5]]
        except ValueError:
            if mode == "crash":
                raise
            if mode == "report":
                print("bad input", file=sys.stderr)
                sys.exit(2)


def main():
    mode = sys.argv[2] if sys.argv[1:2] == ["--on-bad-input"] else None
    while True:
        block = []
        for text in sys.stdin:
            block.append(text.rstrip("\n"))
            if text.strip() == "EOS":
                break
        else:
            return
        if block[0] != "START":
            return
        if mode:
            check_numbers(block, mode)
        try:
            round_number = int(block[1].split()[0])
        except ValueError:
            if mode == "crash":
                raise
            if mode == "report":
                print("bad input", file=sys.stderr)
                sys.exit(2)
            round_number = 0
        print("idle" if round_number == 0 else "finish", flush=True)


if __name__ == "__main__":
    main()
