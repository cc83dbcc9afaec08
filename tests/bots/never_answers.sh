#!/bin/sh
# Prints its name, then never answers (and ignores end of input).
echo silent
exec sleep 600
