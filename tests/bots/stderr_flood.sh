#!/bin/sh
# Prints its name, then floods stderr and never answers.
echo noisy
yes "debug: thinking very hard" >&2
