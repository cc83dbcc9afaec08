#!/bin/sh
# Answers, but only after the deadline the tests set (500 ms).
echo late
read -r line
sleep 2
echo "0 0"
