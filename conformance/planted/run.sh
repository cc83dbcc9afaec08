#!/bin/sh
# Planted bugs: applies each patch of conformance/planted/<game>/ in turn to a scratch copy of
# this checkout, runs the game's conformance cases there, and prints the cases each bug fails.
# A bug that fails no case is reported as SURVIVED and the script exits 1: a case is missing.
#
#   conformance/planted/run.sh tsg-auto-chess [PATCH-NAME-FILTER]
#
# The checkout itself is never modified. Builds go to $PLANTED_TARGET_DIR (default: a
# `planted` directory under $CARGO_TARGET_DIR, or under ./target), reused from patch to patch.
set -eu
game=${1:?usage: run.sh GAME [FILTER]}
filter=${2:-}
root=$(cd "$(dirname "$0")/../.." && pwd)
patches="$root/conformance/planted/$game"
[ -d "$patches" ] || { echo "no planted bugs for $game in $patches" >&2; exit 2; }
target=${PLANTED_TARGET_DIR:-${CARGO_TARGET_DIR:-$root/target}/planted}
scratch=$(mktemp -d "${TMPDIR:-/tmp}/planted-$game.XXXXXX")
trap 'rm -rf "$scratch"' EXIT INT TERM
# The sources the conformance test needs; not the build output, not the fuzz corpus.
(cd "$root" && tar cf - --exclude=./target --exclude=./fuzz --exclude=./.git .) | (cd "$scratch" && tar xf -)
survived=0
total=0
for patch in "$patches"/*.patch; do
    name=$(basename "$patch" .patch)
    case "$name" in *"$filter"*) ;; *) continue ;; esac
    total=$((total + 1))
    # The sources a patch may touch, fresh for each: the root crate's and the games' crates.
    rm -rf "$scratch/src" "$scratch/crates" && cp -R "$root/src" "$scratch/src" && cp -R "$root/crates" "$scratch/crates"
    (cd "$scratch" && patch -s -p1 < "$patch")
    # No name filter: a bug that makes the library fail to load shows as the one trial
    # `load-case-library`, which a filter on the game would hide.
    out=$(cd "$scratch" && CARGO_TARGET_DIR="$target" nice -n 10 cargo test --test conformance 2>&1 || true)
    failed=$(printf '%s\n' "$out" | sed -n 's/^test \(.*[^ ]\) *\.\.\. FAILED$/\1/p' | grep -E "^($game/|load-case-library)" || true)
    if printf '%s\n' "$out" | grep -qE 'built without its cases/|^running 0 tests'; then
        echo "$name: BROKEN RUN (no case ran: the library is missing from the build)"
        survived=$((survived + 1))
    elif printf '%s\n' "$out" | grep -q '^error: could not compile'; then
        echo "$name: DOES NOT BUILD"
        printf '%s\n' "$out" | grep -B2 -A8 '^error\[' | head -20
        survived=$((survived + 1))
    elif [ -z "$failed" ]; then
        echo "$name: SURVIVED (no case fails)"
        survived=$((survived + 1))
    else
        echo "$name: caught by $(printf '%s\n' "$failed" | wc -l) case(s)"
        printf '%s\n' "$failed" | sed 's/^/    /'
    fi
done
echo "$((total - survived)) of $total planted bugs caught"
[ "$survived" -eq 0 ]
