#!/bin/sh
# Says its name, then starts a child in a new session (setsid: out of its process group's
# reach) and lets it run on; then answers nothing more and ends at the end of its input.
echo escapee
setsid sleep 300 </dev/null >/dev/null 2>&1 &
cat >/dev/null
