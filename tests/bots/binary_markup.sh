#!/bin/sh
# Prints its name, then a line of markup, a backslash, a control character and bytes that are
# not text.
echo binary-markup
read -r line
printf '<b>x</b> a\\b \001 \377\376\n'
exec sleep 600
