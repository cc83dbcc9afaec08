#!/bin/sh
# Prints its name, then dies by SIGSEGV on its first input.
echo signal
read -r line
kill -SEGV $$
