#!/bin/sh
# Dies before printing anything.
echo "segmentation fault (core dumped)" >&2
exit 3
