#!/bin/bash
# Plants each bug of conformance/planted/<game>/*.patch in turn into the reference engine
# (git apply), runs the game's cases (`cargo test --test conformance -- <game>/`), prints the
# cases each bug fails, and takes the patch out again (git apply -R). A bug no case catches is
# reported SURVIVED and the script exits 1.
#
#   conformance/planted/run.sh spring2022
set -u
game="${1:?usage: conformance/planted/run.sh GAME}"
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
shopt -s nullglob
patches=(conformance/planted/"$game"/*.patch)
if [ ${#patches[@]} -eq 0 ]; then
  echo "no patches in conformance/planted/$game/" >&2
  exit 2
fi
if ! git diff --quiet -- src/; then
  echo "src/ has uncommitted changes: commit or stash them first" >&2
  exit 2
fi
survived=0
for patch in "${patches[@]}"; do
  name="$(basename "$patch" .patch)"
  git apply "$patch" || { echo "$name: does not apply"; survived=1; continue; }
  out="$(cargo test --test conformance -- "$game/" 2>&1)"
  git apply -R "$patch"
  failed="$(printf '%s\n' "$out" | sed -n 's/^test \(.*[^ ]\) *\.\.\. FAILED$/\1/p')"
  if [ -z "$failed" ]; then
    if printf '%s\n' "$out" | grep -q '^error'; then
      echo "$name: does not compile"
    else
      echo "$name: SURVIVED"
    fi
    survived=1
  else
    echo "$name: caught by $(printf '%s\n' "$failed" | wc -l) cases"
    printf '%s\n' "$failed" | sed 's/^/    /'
  fi
done
exit $survived
