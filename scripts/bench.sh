#!/usr/bin/env bash
# The benchmarks of docs/BENCHMARKS.md with their peer at its best: installs what run.sh installs plus
# PyTorch (python3-torch) and Debian's OpenBLAS (libopenblas0-serial, which the PyTorch peer is run
# on; Debian's torch otherwise uses whatever libblas.so.3 is selected, often the reference BLAS),
# builds, then prints the date, the machine's load and each benchmark as JSON, one per line.
#   ./scripts/bench.sh            CPU kernels, training steps on spiral and digits, transformer steps
#   ./scripts/bench.sh --train    training steps only (the MLP on spiral and digits, the depth lab's transformer)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/setup.sh
NORMLAB_PACKAGES+=(python3-torch libopenblas0-serial)
normlab_setup
cli=build/bin/normlab-cli
echo "{\"date\": \"$(date -u +%FT%TZ)\", \"load\": \"$(cut -d' ' -f1-3 /proc/loadavg)\", \"cpu\": \"$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')\"}"
if [ "${1:-}" != "--train" ]; then
  "$cli" bench --cpu --torch --json
fi
for dataset in spiral digits; do
  "$cli" bench --train --dataset "$dataset" --torch --json
done
for placement in postln preln normformer; do
  "$cli" bench --depth --placement "$placement" --torch --json
done
