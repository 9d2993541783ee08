#!/usr/bin/env bash
# normlab-cli when memory runs out (cli.out_of_memory; docs/RELIABILITY.md, Memory):
#   out_of_memory.sh NORMLAB_CLI SANITIZED
# At every address-space limit of a sweep (ulimit -v), a training command either finishes (exit 0)
# or prints the one "out of memory" line and exits 2: never a crash, an abort, "double free" or
# exit 1. ASan reserves terabytes of address space and cannot run under ulimit -v: with
# SANITIZED=ON the test says so and is skipped (exit 77).
set -u
. "$(dirname "$0")/../lib.sh"
cli=$1 sanitized=$2
case "$sanitized" in ON | on | 1 | TRUE | true)
    echo "skipped: an AddressSanitizer build cannot run under ulimit -v (the plain build runs this test)"
    exit 77
    ;;
esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
expected="normlab-cli: out of memory: the input needs more memory than this machine gives; try smaller sizes"

# sweep FROM_KB TO_KB STEP_KB CMD...: CMD under each limit.
sweep() {
    local from=$1 to=$2 step=$3 kb code finished=0 refused=0
    shift 3
    for ((kb = from; kb <= to; kb += step)); do
        (ulimit -v "$kb" && exec "$@") >"$tmp/out" 2>"$tmp/err"
        code=$?
        case $code in
        0) finished=$((finished + 1)) ;;
        2)
            [ "$(cat "$tmp/err")" = "$expected" ] ||
                fail "ulimit -v $kb: $*: exit 2 with: $(head -c 400 "$tmp/err")"
            refused=$((refused + 1))
            ;;
        *) fail "ulimit -v $kb: $* exited $code: $(head -c 400 "$tmp/err")" ;;
        esac
    done
    # Both ends reached: the sweep crosses the memory the command needs.
    [ $refused -gt 0 ] && [ $finished -gt 0 ] ||
        fail "$*: $finished finished, $refused refused: the sweep misses the limit"
    echo "ok: $* — $finished finished, $refused refused with the one line, none crashed"
}

# The attacks of docs/RELIABILITY.md, Memory (the depth one crashed at 450 MB, the train one at 120 MB).
sweep 150000 800000 50000 "$cli" depth --placement preln --layers 12 --width 256 --batch 8 --steps 1
sweep 40000 200000 20000 "$cli" train --dataset digits --norm batchnorm --width 256 --hidden 6 --batch 512 --steps 5
