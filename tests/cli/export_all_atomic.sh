#!/usr/bin/env bash
# normlab-cli export --all writes all of its files or none (cli.export.all_or_nothing;
# docs/RELIABILITY.md, Files, signals and limits):  export_all_atomic.sh NORMLAB_CLI WORKDIR
# A batch that fails part-way — a bad CSV row in its last lab, a full disk — leaves the output
# folder as it was (no figure, no staging folder), and the same batch then runs without "exists".
# The scene's Depth lab is a small one (2 layers, 2 steps): the batch makes every lab's figures,
# and the Depth lab's defaults train for a minute (several under the sanitizers).
set -u
. "$(dirname "$0")/../lib.sh"
cli=$1 dir=$2
fresh_dir "$dir"
cd "$dir" || exit 1
printf 'x,y,label\n0,0,0\n1,1,1\n0,1,0\n1,0,1\n0.1,0.1,0\n0.9,oops,1\n' >data.csv
cat >scene.json <<'JSON'
{"format": "normlab-scene", "version": 1, "lab": "explorer",
 "labs": {"explorer": {}, "gradients": {},
          "training": {"dataset": "csv", "csv_path": "data.csv", "hidden_layers": 1, "width": 2, "batch_size": 2,
                       "steps": 10, "variants": ["none"]},
          "depth": {"layers": 2, "width": 16, "steps": 2, "measure_steps": 1, "seeds": 1,
                    "sweep_points": 2, "sweep_steps": 5}}}
JSON

# A bad row in the training lab's CSV, read after the other labs' figures are made.
"$cli" export --scene scene.json --all --out-dir out --format csv,svg >out.txt 2>err.txt
code=$?
[ $code = 2 ] || fail "a bad CSV row: exit $code, not 2: $(head -c 300 err.txt)"
grep -q "line 7, column 2 is not a number" err.txt || fail "the bad row is not named: $(head -c 300 err.txt)"
[ ! -e out ] || fail "a failed batch left files: $(ls -A out | head -5)"
[ ! -s out.txt ] || fail "a failed batch printed paths: $(head -3 out.txt)"
mkdir kept
echo mine >kept/other.txt
"$cli" export --scene scene.json --all --out-dir kept --format csv >out.txt 2>err.txt
[ "$(ls -A kept)" = other.txt ] || fail "a failed batch into an existing folder left: $(ls -A kept | head -5)"
echo "ok: a bad CSV row part-way leaves no file and no staging folder"

# A full disk (ulimit -f: write() fails with EFBIG part-way, as with ENOSPC).
printf 'x,y,label\n0,0,0\n1,1,1\n0,1,0\n1,0,1\n0.1,0.1,0\n0.9,0.8,1\n' >data.csv
sh -c "trap '' XFSZ; ulimit -f 8; exec \"\$0\" \"\$@\"" "$cli" export --scene scene.json --all --out-dir full \
    --format csv,svg >out.txt 2>err.txt
code=$?
[ $code = 2 ] || fail "a full disk: exit $code, not 2: $(head -c 300 err.txt)"
grep -q "File too large" err.txt || fail "the full disk is not named: $(head -c 300 err.txt)"
[ ! -e full ] || fail "a batch on a full disk left files: $(ls -A full | head -5)"
echo "ok: a full disk part-way leaves no file"

# The same batches now run, without "exists".
"$cli" export --scene scene.json --all --out-dir out --format csv,svg >out.txt 2>err.txt ||
    fail "the batch after the fix: $(head -c 300 err.txt)"
n=$(ls out | wc -l)
[ "$n" -gt 4 ] && [ "$n" = "$(wc -l <out.txt)" ] || fail "$n files, $(wc -l <out.txt) paths printed"
[ -z "$(ls -A out | grep '^\.')" ] || fail "the staging folder is left: $(ls -A out)"
"$cli" export --scene scene.json --all --out-dir out --format csv >out.txt 2>err.txt
[ $? = 2 ] && grep -q "exists; not replaced" err.txt || fail "a second batch replaced files without --replace"
echo "ok: the batch then writes all $n files; a second one refuses before writing"
