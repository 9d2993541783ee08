#!/usr/bin/env bash
# Memory budgets that count what a run allocates (cli.budgets in CMakeLists.txt):
#   budgets.sh NORMLAB_CLI WORKDIR [SANITIZED]
# A CSV under the 16 MB file limit with 10^6 rows, and a 1.2 MB text of 300,000 distinct
# characters, are refused with their sizes (one line, exit 2) before the trainer allocates;
# under a 2.5 GB address-space limit (none in the sanitizer build, which reserves terabytes), so
# that a binary without the budgets fails by its message instead of taking 3 GB or more.
# Prints "ok: …" per check; exits 1 at the first failure.
set -u
. "$(dirname "$0")/../lib.sh"
cli=$1 dir=$2
# expect (lib.sh): CMD exits CODE, its stderr is one line holding STDERR_TEXT, under the limit.
EXPECT_LIMIT_KB=2500000 EXPECT_ONE_LINE=1
case "${3:-}" in ON | on | 1 | TRUE | true) EXPECT_LIMIT_KB=unlimited ;; esac
fresh_dir "$dir"
cd "$dir" || exit 1

awk 'BEGIN { for (i = 0; i < 1000000; i++) printf "%.3f,%.3f,%d\n", (i % 997) / 997, (i % 991) / 991, i % 2 }' >rows.csv
expect 2 "rows.csv has 1000000 rows × 2 features: training 2 hidden layers of width 64 needs about 3.1 GB of memory, more than the limit of 2.0 GB" \
    "$cli" train --csv rows.csv --norm layernorm --steps 3
head -n 100000 rows.csv >rows100k.csv
expect 0 "" "$cli" train --csv rows100k.csv --norm layernorm --steps 3 --hidden 1 --width 16
echo "ok: a 10^6-row CSV is refused by its training memory; 10^5 rows train"

python3 -c "
import sys
cps = [c for c in range(0x100, 0x100 + 302048) if not 0xD800 <= c <= 0xDFFF][:300000]
s = ''.join(map(chr, cps))
sys.stdout.write(s + s[:20000])" >wide.txt
expect 2 "the text has 300000 distinct characters: batch 32 (and 256 held-out cases) × context 32 × width 64 × 6 layers × vocabulary 300000 needs about 27 GB of memory per step, more than the limit of 2.0 GB" \
    "$cli" depth --placement preln --task text --text wide.txt --steps 1
echo "ok: a text of 300,000 distinct characters is refused by its vocabulary's memory"
