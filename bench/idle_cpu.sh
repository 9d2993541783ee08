#!/usr/bin/env bash
# Idle costs nothing (docs/BENCHMARKS.md, "The GUI at rest"): the CPU time normlab uses over a
# window of W seconds, from /proc/PID/stat (utime + stime), in one run under Xvfb:
#   1. the Explorer at rest (nothing typed, nothing running): should be < 2 % of a core;
#   2. the Training lab playing (Ctrl+6, Space): should draw at its frame rate, as busy as before.
# Frames drawn per second come from normlab --loop-stats. Not a test: numbers for the record.
#   bench/idle_cpu.sh build/bin/normlab [W=10]
set -u
if [ "${1:-}" = "--inner" ]; then
    app=$2 secs=$3 dir=$4
    "$app" --lab explorer --autosave "$dir/autosave.json" --loop-stats 2>"$dir/stderr.txt" &
    pid=$!
    start=$(date +%s.%N)
    timeout 30 xdotool search --sync --onlyvisible --name '^NormLab$' >/dev/null || { echo "no window"; exit 1; }
    xdotool mousemove --sync 5 700   # keys go to the window under the pointer (no window manager)
    tick=$(getconf CLK_TCK)
    cpu() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
    measure() {   # measure LABEL: CPU % of one core over $secs s, and the seconds since start it covered
        local c0 c1 t0
        t0=$(echo "$(date +%s.%N) - $start" | bc)
        c0=$(cpu)
        sleep "$secs"
        c1=$(cpu)
        echo "$1 cpu_percent $(echo "scale=2; 100 * ($c1 - $c0) / ($tick * $secs)" | bc) from_s $t0"
    }
    sleep 5   # start-up, the first autosave
    measure idle_explorer
    xdotool key ctrl+6
    sleep 1
    xdotool key space
    sleep 3
    measure training_playing
    xdotool key ctrl+q
    wait "$pid"
    cat "$dir/stderr.txt"
    exit 0
fi
app=$(realpath "$1")
secs=${2:-10}
dir=$(mktemp -d)
export HOME="$dir"
echo "date $(date -u +%Y-%m-%dT%H:%MZ)  load $(cut -d' ' -f1-3 /proc/loadavg)  $(nproc) cores"
xvfb-run -a -s "-screen 0 1280x720x24" bash "$0" --inner "$app" "$secs" "$dir"
rm -rf "$dir"
