#!/bin/sh
# Planted bugs: conformance/planted/run.sh GAME
#
# Applies each conformance/planted/GAME/*.patch in turn to a scratch copy of this checkout (the
# checkout itself is never touched), runs `cargo test --test conformance -- GAME/` there and
# prints the cases that fail. A planted bug that no case catches is reported as SURVIVED and
# makes the exit status 1: a case is missing. CARGO_TARGET_DIR is honoured (the scratch copy has
# its own path, so it does not disturb the checkout's build).
set -eu

game=${1:?usage: conformance/planted/run.sh GAME}
root=$(cd "$(dirname "$0")/../.." && pwd)
patches=$(ls "$root/conformance/planted/$game/"*.patch 2>/dev/null || true)
[ -n "$patches" ] || { echo "no patches in conformance/planted/$game/" >&2; exit 2; }

scratch=$(mktemp -d "${TMPDIR:-/tmp}/shinpan-planted-XXXXXX")
trap 'rm -rf "$scratch"' EXIT INT TERM
# The checkout as it is, tracked and untracked files alike (ignored ones left out).
(cd "$root" && git ls-files -z --cached --others --exclude-standard \
    | xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh \
    | tar --null -T - -cf -) | tar -xf - -C "$scratch"

survived=0
for patch in $patches; do
    name=$(basename "$patch" .patch)
    (cd "$scratch" && git apply "$patch")
    if out=$(cd "$scratch" && cargo test --test conformance -- "$game/" 2>&1); then
        echo "$name: SURVIVED (no case fails)"
        survived=$((survived + 1))
    else
        failing=$(printf '%s\n' "$out" | sed -n 's/^test \(.*\) \.\.\. FAILED$/\1/p')
        if [ -z "$failing" ]; then
            echo "$name: does not build or the run broke:"
            printf '%s\n' "$out" | grep -E '^error' | head -5
            survived=$((survived + 1))
        else
            echo "$name: caught by $(printf '%s\n' "$failing" | wc -l) case(s):"
            printf '%s\n' "$failing" | sed 's/^/    /'
        fi
    fi
    (cd "$scratch" && git apply -R "$patch")
done
[ "$survived" -eq 0 ]
