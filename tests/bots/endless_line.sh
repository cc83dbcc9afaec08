#!/bin/sh
# Prints its name, then one line that never ends.
echo endless
read -r line
yes x | tr -d '\n'
