#!/usr/bin/env bash
# Idle costs nothing (docs/BENCHMARKS.md, "The GUI at rest"): the CPU time normlab uses over a
# window of W seconds, from /proc/PID/stat (utime + stime), in one run under Xvfb:
#   1. the Explorer at rest (nothing typed, nothing running): should be < 2 % of a core;
#   2. the Training lab playing (Ctrl+6: its run starts on its first visit, 2000 steps at 200
#      steps/s) over 6 s: it should draw at its frame rate, as a scripted run does.
# Frames drawn per second come from normlab --loop-stats; for comparison, the frame rate of the
# Training lab in a scripted run (--frames 60 --frame-stats: never waits) on the same machine.
# Not a test: numbers for the record.
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
    measure() {   # measure LABEL SECONDS: CPU % of one core, and the seconds since start it covered
        local c0 c1 t0
        t0=$(echo "$(date +%s.%N) - $start" | bc)
        c0=$(cpu)
        sleep "$2"
        c1=$(cpu)
        echo "$1 cpu_percent $(echo "scale=2; 100 * ($c1 - $c0) / ($tick * $2)" | bc) from_s $t0 seconds $2"
    }
    sleep 5   # start-up, the first autosave
    measure idle_explorer "$secs"
    xdotool key ctrl+6
    sleep 1
    measure training_playing 6
    xdotool key ctrl+q
    wait "$pid"
    tail -n 1 "$dir/stderr.txt"
    "$app" --lab training --frames 60 --frame-stats | grep -m1 p50_ms | sed 's/^ */scripted_training /'
    exit 0
fi
app=$(realpath "$1")
secs=${2:-10}
dir=$(mktemp -d)
export HOME="$dir"
echo "date $(date -u +%Y-%m-%dT%H:%MZ)  load $(cut -d' ' -f1-3 /proc/loadavg)  $(nproc) cores"
xvfb-run -a -s "-screen 0 1280x720x24" bash "$0" --inner "$app" "$secs" "$dir"
rm -rf "$dir"
