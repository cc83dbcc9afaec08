#!/bin/sh
# Prints its name, then legal-looking replies without end, whatever it is asked.
echo flood
exec yes "0 0"
