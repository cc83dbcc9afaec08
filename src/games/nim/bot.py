#!/usr/bin/env python3
"""A Nim bot for shinpan's tests: takes one object from the first heap that has any."""
import sys

for line in sys.stdin:
    try:
        heaps = [int(t) for t in line.split()][1:]
    except ValueError:
        continue
    heap = next((i for i, n in enumerate(heaps) if n > 0), 0)
    print(f"{heap} 1", flush=True)
