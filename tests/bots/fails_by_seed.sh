#!/bin/sh
# A CODE VS Reborn bot that never gets past its first turn, and how it fails depends on the
# seed: it reads the first pack's top row (`a b`, the same for both seats of a seed) and by
# (a + b) mod 3 exits with an error (a crash), sleeps past the deadline the tests set (a
# time-out), or replies `9 0`, a position outside 0..8 (an illegal reply).
echo fails-by-seed
read -r a b
case $(( (a + b) % 3 )) in
  0) echo "giving up" >&2; exit 1 ;;
  1) sleep 5; echo "0 0" ;;
  *) echo "9 0" ;;
esac
cat > /dev/null
