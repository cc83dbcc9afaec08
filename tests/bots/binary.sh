#!/bin/sh
# Prints its name, then bytes that are not text.
echo binary
read -r line
printf '\377\376\375\n'
exec sleep 600
