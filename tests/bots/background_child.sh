#!/bin/sh
# Prints its name and exits, leaving a background process that holds its stdout.
echo orphan
sleep 600 &
exit 0
