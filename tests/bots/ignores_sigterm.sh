#!/bin/sh
# Says its name, then ignores SIGTERM and never ends by itself.
trap '' TERM
echo stubborn
while true; do sleep 1; done
