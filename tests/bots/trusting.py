#!/usr/bin/env python3
"""Trusts its input: int() on every token without a check, so a non-numeric token ends it with a
traceback (exit status 1)."""
import sys

print("trusting", flush=True)
packs = []
for _ in range(500):
    packs.append([[int(t) for t in sys.stdin.readline().split()] for _ in range(2)])
    sys.stdin.readline()  # END
while True:
    turn = int(sys.stdin.readline())
    mine = [int(sys.stdin.readline()) for _ in range(4)]
    rows = [[int(t) for t in sys.stdin.readline().split()] for _ in range(16)]
    sys.stdin.readline()
    theirs = [int(sys.stdin.readline()) for _ in range(4)]
    rows = [[int(t) for t in sys.stdin.readline().split()] for _ in range(16)]
    sys.stdin.readline()
    print(f"{turn % 9} 0", flush=True)
