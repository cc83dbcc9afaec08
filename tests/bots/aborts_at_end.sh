#!/bin/sh
# Plays like good.py, then, once its input has ended and good.py has exited, aborts the way a
# C++ bot with a double free does (a shell reports SIGABRT as status 134). Issue 20: a real
# contest bot did this after a normal match end, and `bot` and `play` said nothing.
python3 "$(dirname "$0")/good.py" "$@"
echo 'free(): double free detected in tcache 2' >&2
exit 134
