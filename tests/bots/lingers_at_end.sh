#!/bin/sh
# Plays like good.py, then does not exit when its input ends: it waits until it is stopped.
python3 "$(dirname "$0")/good.py" "$@"
exec sleep 30
