#!/usr/bin/env bash
# explain echoes a step it cannot read with control characters escaped, C1 (U+0080–U+009F)
# included (cli.explain.control_characters_escaped):  explain_escapes.sh NORMLAB_CLI
set -u
. "$(dirname "$0")/../lib.sh"
cli=$1
step=$(printf 'a\302\233b = 5')   # "a", U+009B (CSI, a terminal's escape), "b"
err=$("$cli" explain --x 2,4 --step "$step" 2>&1 >/dev/null)
code=$?
[ "$code" = 2 ] || fail "exit $code, not 2: $err"
[ "$err" = '--step: unexpected '"'"'a'"'"' at position 1 of "a\u009bb"' ] || fail "stderr is \"$err\""
printf '%s' "$err" | LC_ALL=C grep -q "$(printf '\302\233')" && fail "U+009B echoed raw"
echo "ok: U+009B is escaped in an echoed step"
