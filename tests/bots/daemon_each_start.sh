#!/bin/sh
# Leaves a detached daemon (a new session, its parent gone) at every start, then plays as the
# well-behaved bot does.
( setsid sleep 300 </dev/null >/dev/null 2>&1 & ) 
exec python3 "$(dirname "$0")/good.py"
