#!/bin/sh
# Ends its name line with CR LF, as a bot written on Windows does, then reads to the end.
printf 'crlf bot\r\n'
cat >/dev/null
