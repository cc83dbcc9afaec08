#!/bin/bash -eu
# Builds every fuzz target of fuzz/ (cargo fuzz list) into $OUT, each with its committed corpus
# as the seed corpus: ClusterFuzzLite runs this in its image with $SANITIZER set. By hand, on the
# stable toolchain and without a sanitizer:
#   SRC=<folder holding the checkout as shinpan/> OUT=<dir> SANITIZER=none .clusterfuzzlite/build.sh
cd "$SRC/shinpan"
flags=(-O)
if [ "${SANITIZER:-address}" = none ]; then
  flags+=(-s none)
fi
cargo fuzz build "${flags[@]}"
built=fuzz/target/x86_64-unknown-linux-gnu/release
for target in $(cargo fuzz list); do
  cp "$built/$target" "$OUT/"
  corpus=fuzz/corpus/$target
  if [ -d "$corpus" ] && command -v zip > /dev/null; then
    (cd "$corpus" && zip -q -r "$OUT/${target}_seed_corpus.zip" .)
  fi
done
