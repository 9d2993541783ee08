#!/usr/bin/env bash
# normlab-cli and the user's files (cli.files in CMakeLists.txt):  files.sh NORMLAB_CLI SCENE WORKDIR
# [export]  --out never replaces a file without --replace, never turns a FIFO, a device or a link to
#           one into a regular file; a link to a regular file is written through.
# [scenes]  a scene naming a data file outside its folder is refused without --read-outside-files;
#           nesting and size limits are named.
# [data]    CSVs: FIFOs refused at once, devices, gzip bombs and big files by their limit, a UTF-8
#           BOM read, errors that name the cell's position only.
# [options] --steps 0x10 is not 16; depth options within their ranges but beyond the memory budget
#           are refused by the limit; byte-level samples print escaped; deep explain steps refused.
# Prints "ok: …" per check; exits 1 at the first failure.
set -u
. "$(dirname "$0")/../lib.sh"
cli=$1 scene=$2 dir=$3
fresh_dir "$dir"
cd "$dir" || exit 1
# expect CODE STDERR_TEXT CMD... (lib.sh): CMD exits CODE and its stderr holds STDERR_TEXT.

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
head -1 real/fig.csv | grep -q "^series,x" || fail "the file the link names was not written"
echo "ok: export writes through a link to a regular file"

# [scenes] ---------------------------------------------------------------------------------
mkdir talk
cat >talk/outside.json <<'JSON'
{"format": "normlab-scene", "version": 1, "lab": "training", "labs": {"training": {"csv_path": "/etc/hostname"}}}
JSON
expect 2 'talk/outside.json: labs.training.csv_path names "/etc/hostname", outside the scene'"'"'s folder; not read (add --read-outside-files to read it)' \
    "$cli" export --scene talk/outside.json --list
expect 0 "" "$cli" export --scene talk/outside.json --list --read-outside-files
echo "ok: a scene's file outside its folder is read only with --read-outside-files"

python3 -c "print('{\"format\": \"normlab-scene\", \"version\": 1, \"labs\": {\"explorer\": {\"x\": ' + '[' * 20000 + ']' * 20000 + '}}}')" >deep.json
expect 2 "is nested deeper than 64 levels (the limit)" "$cli" export --scene deep.json --list
head -c 17000000 /dev/zero | tr '\0' ' ' >big.json
expect 2 'cannot read "big.json": it is 16.2 MB, more than the limit of 16 MB' "$cli" export --scene big.json --list
expect 2 "request is more than 256 MB (the limit)" sh -c "\"$cli\" eval </dev/zero"
echo "ok: nesting, size and stdin limits are named"

# [data] -----------------------------------------------------------------------------------
mkfifo pipe.csv
expect 2 "cannot read pipe.csv: it is a FIFO, not a regular file" timeout 20 "$cli" train --csv pipe.csv --norm rmsnorm
expect 2 "cannot read /dev/zero: it is a device or socket, not a regular file" timeout 20 "$cli" train --csv /dev/zero --norm rmsnorm
python3 -c "import gzip,sys; sys.stdout.buffer.write(gzip.compress(b'1,2,0\n' * 4000000, 9))" >bomb.csv.gz
expect 2 "cannot read bomb.csv.gz: it holds more than 16 MB of text (decompressed), more than the limit" \
    timeout 60 "$cli" train --csv bomb.csv.gz --norm rmsnorm
printf '\357\273\2771,2,0\n3,4,1\n1,3,0\n4,4,1\n2,2,0\n5,4,1\n' >bom.csv
expect 0 "" "$cli" train --csv bom.csv --norm rmsnorm --steps 5
printf 'x,y,label\nalice,hunter2,0\n' >creds.csv
expect 2 "creds.csv line 2, column 1 is not a number" "$cli" train --csv creds.csv --norm rmsnorm
grep -q -e alice -e hunter2 err.txt && fail "a CSV error shows the file's content: $(cat err.txt)"
echo "ok: CSVs: FIFO, device, gzip bomb refused; BOM read; no content in errors"

# [options] --------------------------------------------------------------------------------
expect 2 '--steps is not a number (got "0x10")' "$cli" train --dataset xor --norm rmsnorm --steps 0x10
expect 2 "needs about 1.1 TB of memory per step, more than the limit of 2.0 GB" \
    "$cli" depth --placement preln --task text --layers 12 --width 256 --batch 4096 --context 256 --steps 1
expect 2 "nested deeper than 100 levels" "$cli" explain --x 2,4,6,8 \
    --step "$(python3 -c "print('(' * 15000 + '1' + ')' * 15000 + ' = 1')")"
python3 -c "import sys; sys.stdout.buffer.write(bytes(range(1, 32)) * 8 + bytes(range(128, 256)) * 4)" >binary.txt
expect 0 "" "$cli" depth --placement preln --task text --text binary.txt --units bytes --context 8 --steps 1 \
    --generate 200 --prompt "$(printf '\001\002')"
python3 - out.txt <<'PY' || fail "a byte-level sample printed raw control or non-UTF-8 bytes"
import re, sys
data = open(sys.argv[1], 'rb').read()
data.decode('utf-8')                                   # valid UTF-8
assert not re.search(rb'[\x00-\x08\x0b-\x1f\x7f]', data), data[-200:]
assert b'\\x' in data                                  # the bytes are there, escaped
PY
echo "ok: options: hex refused, memory budget named, deep steps refused, samples escaped"
