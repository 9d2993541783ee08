# shellcheck shell=bash
# Sourced by the test scripts in tests/cli and tests/gui:   . "$(dirname "$0")/../lib.sh"
#   fail TEXT...              prints "FAIL: TEXT" and exits 1
#   fresh_dir DIR [SUB...]    DIR emptied (removed and made again), with the folders DIR/SUB
#   normlab_test_dir DIR [SUB...]
#                             fresh_dir DIR home SUB…; HOME points at DIR/home, no XDG folders (the
#                             app's autosave and settings stay inside DIR)
#   expect CODE TEXT CMD...   runs CMD (stdout to out.txt, stderr to err.txt in the current folder):
#                             it must exit CODE, and its stderr hold TEXT (a fixed string; "" for no
#                             check). EXPECT_LIMIT_KB: CMD runs under ulimit -v that many KB (or
#                             "unlimited"); EXPECT_ONE_LINE=1: a CMD that fails says so in one line.

fail() {
    echo "FAIL: $*"
    exit 1
}

fresh_dir() {
    local dir=$1 sub
    shift
    rm -rf "$dir"
    mkdir -p "$dir"
    for sub in "$@"; do mkdir -p "$dir/$sub"; done
}

normlab_test_dir() {
    fresh_dir "$@" home
    export HOME="$1/home"
    unset XDG_DATA_HOME XDG_CONFIG_HOME
}

expect() {
    local code=$1 text=$2 got
    shift 2
    if [ -n "${EXPECT_LIMIT_KB:-}" ]; then
        (ulimit -v "$EXPECT_LIMIT_KB"; "$@") >out.txt 2>err.txt
    else
        "$@" >out.txt 2>err.txt
    fi
    got=$?
    [ "$got" = "$code" ] || fail "$* exited $got, not $code: $(head -c 300 err.txt)"
    [ -z "$text" ] || grep -qF -- "$text" err.txt || fail "$*: stderr lacks \"$text\": $(head -c 300 err.txt)"
    [ "${EXPECT_ONE_LINE:-0}" != 1 ] || [ "$code" = 0 ] || [ "$(wc -l <err.txt)" = 1 ] ||
        fail "$*: stderr is not one line: $(head -c 300 err.txt)"
}
