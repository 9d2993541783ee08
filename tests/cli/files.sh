#!/usr/bin/env bash
# normlab-cli and the user's files (cli.files in CMakeLists.txt):  files.sh NORMLAB_CLI SCENE WORKDIR
# [export] --out never replaces a file without --replace, never turns a FIFO, a device or a link to
#          one into a regular file; a link to a regular file is written through.
# Prints "ok: …" per check; exits 1 at the first failure.
set -u
cli=$1 scene=$2 dir=$3
rm -rf "$dir"
mkdir -p "$dir"
cd "$dir" || exit 1

fail() {
    echo "FAIL: $*"
    exit 1
}

# expect CODE STDERR_TEXT CMD...: CMD exits CODE and its stderr holds STDERR_TEXT (fixed string).
expect() {
    local code=$1 text=$2 got
    shift 2
    "$@" >out.txt 2>err.txt
    got=$?
    [ "$got" = "$code" ] || fail "$* exited $got, not $code: $(head -c 300 err.txt)"
    [ -z "$text" ] || grep -qF -- "$text" err.txt || fail "$*: stderr lacks \"$text\": $(head -c 300 err.txt)"
}

# [export] ---------------------------------------------------------------------------------
plot=gradients_input_scaling
echo mine >kept.svg
expect 2 '--out "kept.svg" exists; not replaced (add --replace to replace it)' \
    "$cli" export --scene "$scene" --plot "$plot" --out kept.svg
[ "$(cat kept.svg)" = mine ] || fail "kept.svg was replaced"
expect 0 "" "$cli" export --scene "$scene" --plot "$plot" --out kept.svg --replace
grep -q "<svg" kept.svg || fail "--replace did not write the SVG"
echo "ok: export keeps an existing file unless --replace"

mkfifo fifo.csv
expect 2 'cannot write "fifo.csv": it is a FIFO, not a regular file' \
    "$cli" export --scene "$scene" --plot "$plot" --out fifo.csv --replace
[ -p fifo.csv ] || fail "fifo.csv is no longer a FIFO"
ln -s /dev/null null.csv
expect 2 'cannot write "null.csv": it is a symbolic link to a device, not to a regular file' \
    "$cli" export --scene "$scene" --plot "$plot" --out null.csv --replace
[ -L null.csv ] && [ -c /dev/null ] || fail "null.csv or /dev/null changed"
echo "ok: export refuses a FIFO and a link to a device"

mkdir real
echo old >real/fig.csv
ln -s real/fig.csv link.csv
expect 0 "" "$cli" export --scene "$scene" --plot "$plot" --out link.csv --replace
[ -L link.csv ] || fail "link.csv is no longer a link"
head -1 real/fig.csv | grep -q "series,x,y" || fail "the file the link names was not written"
echo "ok: export writes through a link to a regular file"
