#!/usr/bin/env bash
# The labs keep drawing while they train (docs/BENCHMARKS.md, "The Depth lab's demo"): the Depth
# lab's default demo playing in an interactive window (paced as for a user: not --frames, which
# never waits) under Xvfb + Mesa llvmpipe at 1280x720, for S seconds. Prints, as one JSON line:
# the frames drawn in each whole second (normlab --loop-stats) and their median, normlab's CPU
# time as cores busy, where the demo stands at the end (the lab's progress bars, --text-log),
# the load average, and the worker threads' nice values. NORMLAB_THREADS (the lab's threads)
# passes through. With a third argument, a screenshot of the screen at the end (ImageMagick's
# import). With DEPTH_GUI_SLIDE=1, the shipped lecture's Depth slide (7) in presenter view, projector
# theme, instead of the lab, and the seconds from the start until the slide says "step 50 / 100"
# (step50_s; polled every 0.25 s). Not a test: numbers for the record.
#   bench/depth_gui.sh build/bin/normlab [S=20] [SHOT.png]
set -u
if [ "${1:-}" = "--inner" ]; then
    app=$2 secs=$3 dir=$4 shot=${5:-}
    what=(--lab depth)
    [ "${DEPTH_GUI_SLIDE:-0}" = 1 ] && what=(--lecture "$(dirname "$0")/../assets/lectures/rmsnorm_paper.json" --slide 7
                                             --presenter --theme projector)
    start=$(date +%s.%N)
    "$app" "${what[@]}" --size 1280x720 --autosave "$dir/autosave.json" --loop-stats --text-log "$dir/text.txt" \
        2>"$dir/stderr.txt" &
    pid=$!
    tick=$(getconf CLK_TCK)
    cpu() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
    c0=$(cpu)
    step50=null
    for _ in $(seq $((secs * 4))); do
        sleep 0.25
        if [ "$step50" = null ] && grep -qE "step ([5-9][0-9]|100) / 100" "$dir/text.txt" 2>/dev/null; then
            step50=$(echo "$(date +%s.%N) - $start" | bc)
        fi
    done
    c1=$(cpu)
    nice=$(ps -L -o ni= -p "$pid" | sort -n | uniq -c | awk '{printf "%s%s×nice %s", (NR>1?", ":""), $1, $2}')
    [ -n "$shot" ] && import -window root "$shot"
    kill -TERM "$pid"
    wait "$pid"
    python3 - "$dir" "$secs" "$(echo "scale=3; ($c1 - $c0) / ($tick * $secs)" | bc)" "$nice" "$step50" <<'PY'
import json, re, statistics, sys
d, secs, busy, nice, step50 = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4], json.loads(sys.argv[5])
stats = None
for line in open(d + "/stderr.txt"):
    if line.startswith('{"frames_per_second"'):
        stats = json.loads(line)
text = open(d + "/text.txt").read()
def bar(pattern):
    m = re.search(pattern, text)
    return m.group(1) if m else None
fps = stats["frames_per_second"][2:-1] if stats else []   # whole seconds, after start-up
print(json.dumps({"seconds": secs, "fps_median": statistics.median(fps) if fps else None, "fps_min": min(fps) if fps else None,
                  "fps": fps, "cores_busy": busy, "threads": nice, "step50_s": step50, "step": bar(r"step (\d+ / \d+)"),
                  "sweep": bar(r"sweep (\d+ / \d+)"), "seeds": bar(r"seeds (\d+ / \d+)")}))
PY
    exit 0
fi
app=$(realpath "$1")
secs=${2:-20}
shot=${3:+$(realpath -m "$3")}
dir=$(mktemp -d)
export HOME="$dir"
echo "date $(date -u +%Y-%m-%dT%H:%MZ)  load $(cut -d' ' -f1-3 /proc/loadavg)  $(nproc) cores  NORMLAB_THREADS=${NORMLAB_THREADS:-unset}"
xvfb-run -a -s "-screen 0 1280x720x24" bash "$0" --inner "$app" "$secs" "$dir" "$shot"
rm -rf "$dir"
