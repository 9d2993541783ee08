#!/usr/bin/env bash
# The web build against the desktop, in one run (docs/BENCHMARKS.md, "The web build"):
#   - download size of build-web/ (raw and gzip -9), file by file;
#   - the page in headless chromium (SwiftShader): time to first frame, frame times per lab,
#     Training steps per second unpaced (tests/web/bench.mjs);
#   - the desktop build under Xvfb (llvmpipe): frame times per lab (normlab --frame-stats
#     --all-labs) and the same Training scene's steps per second (read from --text-log);
#   - the CPU kernels: the GPU lab's sweep in the page (bench.mjs) against normlab-cli bench --cpu
#     at the same shapes.
# Needs build-web/ (./scripts/web.sh --build) and build/ (./scripts/test.sh). Prints the load
# before and after. Usage: scripts/bench_web.sh [SECONDS]   (default 5 per measurement)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-5}
echo "load before: $(uptime)"
echo "== download (bytes: raw, gzip -9)"
total=0 total_gz=0
for f in build-web/index.html build-web/normlab.js build-web/normlab.worker.js build-web/normlab.wasm build-web/normlab.data; do
  raw=$(stat -c %s "$f"); gz=$(gzip -9 -c "$f" | wc -c)
  total=$((total + raw)); total_gz=$((total_gz + gz))
  printf '%-28s %9d %9d\n' "$f" "$raw" "$gz"
done
printf '%-28s %9d %9d\n' total "$total" "$total_gz"

tmp=$(mktemp -d)
trap 'kill $server 2>/dev/null || true; rm -rf "$tmp"' EXIT
cat > "$tmp/training.json" <<'SCENE'
{"format": "normlab-scene", "version": 1, "lab": "training",
 "labs": {"training": {"dataset": "spiral", "seed": 1, "steps": 20000, "steps_per_second": 5000,
                       "variants": ["none", "layernorm", "rmsnorm", "prmsnorm"]}}}
SCENE

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 tests/web/serve.py --dir build-web --port "$port" --quiet &
server=$!
sleep 1
echo "== page (headless chromium, SwiftShader, 1280x720)"
node tests/web/bench.mjs --url "http://127.0.0.1:$port/" --scene "$tmp/training.json" --seconds "$seconds"

echo "== desktop (Xvfb, llvmpipe, 1280x720): frame times, 60 frames per lab"
xvfb-run -a -s "-screen 0 1280x720x24" build/bin/normlab --size 1280x720 --frames 60 --frame-stats --all-labs
echo "== desktop: Training steps per second, unpaced (the same scene), over $seconds s"
log="$tmp/text.txt"
xvfb-run -a -s "-screen 0 1280x720x24" build/bin/normlab --size 1280x720 --scene "$tmp/training.json" \
  --autosave "$tmp/autosave.json" --text-log "$log" >/dev/null 2>&1 &
app=$!
step_now() { grep -oE '^step [0-9]+ / ' "$log" 2>/dev/null | head -1 | grep -oE '[0-9]+' || echo 0; }
sleep 3
s0=$(step_now); t0=$(date +%s.%N)
sleep "$seconds"
s1=$(step_now); t1=$(date +%s.%N)
kill "$app" 2>/dev/null || true
wait "$app" 2>/dev/null || true
python3 -c "print({'steps': $s1 - $s0, 'seconds': round($t1 - $t0, 2), 'steps_per_second': round(($s1 - $s0) / ($t1 - $t0), 1)})"
echo "== desktop: the CPU kernels at the GPU lab's software sweep shapes (normlab-cli bench --cpu)"
for rows in 256 1024; do
  for cols in 256 1024 4096; do
    build/bin/normlab-cli bench --cpu --rows "$rows" --cols "$cols" --json | tr -d '\n '; echo
  done
done
echo "load after: $(uptime)"
