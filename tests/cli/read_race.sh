#!/usr/bin/env bash
# A scene's data file swapped for a link to outside while normlab-cli reads it (cli.read_race;
# docs/RELIABILITY.md, Files, signals and limits):  read_race.sh NORMLAB_CLI WORKDIR [RUNS]
# a/race.csv flips between a regular file and a link to ../b/secret.csv as fast as a loop can
# rename; each export either reads the file inside (exit 0) or refuses the link (exit 2, "leads
# to … outside the scene's folder"). secret.csv has a bad cell at line 7, column 2: an export that
# names it read the outside file, and fails the test. No timing: every run is checked.
set -u
. "$(dirname "$0")/../lib.sh"
cli=$1 dir=$2 runs=${3:-150}
fresh_dir "$dir" a b
cd "$dir" || exit 1
printf 'x,y,label\n0,0,0\n1,1,1\n0,1,0\n1,0,1\n0.1,0.1,0\n0.9,0.9,1\n' >a/inside.csv
printf 'x,y,label\n0,0,0\n1,1,1\n0,1,0\n1,0,1\n0.1,0.1,0\n7,SECRET,1\n' >b/secret.csv
cat >a/scene.json <<'JSON'
{"format": "normlab-scene", "version": 1, "lab": "training",
 "labs": {"training": {"dataset": "csv", "csv_path": "race.csv", "hidden_layers": 1, "width": 2,
                       "batch_size": 2, "steps": 10, "variants": ["none"]}}}
JSON
cp a/inside.csv a/race.csv

# The swapper: rename(2) a regular file or a link over race.csv, again and again: the file for
# about a millisecond (so that most checks at the scene's opening pass), the link for a fifth.
python3 - <<'PY' &
import os, time
os.chdir("a")
deadline = time.time() + 600
while time.time() < deadline and os.path.exists("race.csv"):
    with open("f.tmp", "w") as f:
        f.write(open("inside.csv").read())
    os.replace("f.tmp", "race.csv")
    time.sleep(0.001)
    try:
        os.remove("l.tmp")
    except FileNotFoundError:
        pass
    os.symlink("../b/secret.csv", "l.tmp")
    os.replace("l.tmp", "race.csv")
    time.sleep(0.0002)
PY
swapper=$!
trap 'kill $swapper 2>/dev/null' EXIT

inside=0 refused=0
for ((i = 1; i <= runs; i++)); do
    rm -f out.csv
    "$cli" export --scene a/scene.json --plot training_loss_vs_step --out out.csv >out.txt 2>err.txt
    code=$?
    if grep -q "line 7, column 2" err.txt; then
        echo "FAIL: run $i read the file outside the scene's folder: $(head -c 300 err.txt)"
        exit 1
    elif [ $code = 0 ]; then
        inside=$((inside + 1))
    elif [ $code = 2 ] && grep -q -e "outside the scene's folder" -e "changed while it was being opened" err.txt; then
        refused=$((refused + 1))
    else
        echo "FAIL: run $i exited $code: $(head -c 300 err.txt)"
        exit 1
    fi
done
echo "ok: $runs exports while race.csv flipped: $inside read the file inside, $refused refused the link, none read outside"
