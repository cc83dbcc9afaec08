#!/bin/sh
# Dies by SIGSEGV, as a C bot's unchecked read would, when its input holds a token `x` where a
# number belongs. With `name-first` it says its name before reading anything (CODE VS Reborn);
# otherwise it answers the first request with its name (CEDEC 2013).
if [ "$1" = name-first ]; then
    echo segv
fi
input=$(cat)
if printf '%s\n' "$input" | grep -qE '(^| )x( |$)'; then
    kill -SEGV $$
fi
exit 0
