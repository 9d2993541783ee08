#!/usr/bin/env bash
# An idle window draws nothing, and wakes (gui.idle in CMakeLists.txt; app/shell/frame_pacer.hpp):
#   idle.sh NORMLAB XVFB_RUN WORKDIR
# normlab runs interactively (no --frames) under Xvfb with --loop-stats, which prints the frames
# drawn in each second of the run when it quits. The script notes, on the clock the app's seconds
# count from (its launch), when the window was up and when each step began:
#   rest      4 s with no input: the seconds wholly inside it draw at most one frame in all (the
#             autosave's wake), where a loop that never waits draws in every one;
#   R         a key wakes it: the Explorer's random x (its seed 1 → 2, checked in --dump-session's
#             scene), and frames are drawn in the seconds of the key;
#   Ctrl+6    the Training lab, whose run starts on its first visit (2000 steps at 200 steps/s): a
#             frame in every whole second of the 5 s after, while it plays;
#   Ctrl+Q    quits.
# Prints "ok: …" per check; exits 1 at the first failure.
set -u
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/window_lib.sh"
if [ "${1:-}" = "--inner" ]; then   # inside the X server: --inner APP DIR
    app=$2 dir=$3
    start=$(date +%s.%N)
    "$app" --lab explorer --autosave "$dir/autosave.json" --loop-stats --dump-session \
        >"$dir/scene.json" 2>"$dir/stderr.txt" &
    pid=$!
    since() { echo "$(date +%s.%N) - $start" | bc; }
    wid=$(timeout 60 xdotool search --sync --onlyvisible --name '^NormLab$' | head -n 1)
    [ -n "$wid" ] || { kill "$pid"; echo "FAIL: no NormLab window within 60 s"; exit 1; }
    xdotool mousemove --sync 5 300   # the pointer over the window: it gets the keys (no window manager)
    sleep 4                          # the first frames, the settling, the first autosave
    { echo "rest $(since)"; sleep 4; echo "key $(since)"; } >"$dir/times.txt"
    xdotool key --delay 10 r
    sleep 2
    echo "training $(since)" >>"$dir/times.txt"
    xdotool key --delay 10 ctrl+6
    sleep 5
    echo "quit $(since)" >>"$dir/times.txt"
    normlab_quit "$pid" "$dir/stderr.txt"
    exit
fi

app=$1 xvfb=$2 dir=$3
normlab_test_dir "$dir"
"$xvfb" -a -s "-screen 0 1280x720x24" bash "$0" --inner "$app" "$dir" || exit 1
python3 - "$dir" <<'PY' || exit 1
import json, math, sys
d = sys.argv[1]
times = {k: float(v) for k, v in (line.split() for line in open(f"{d}/times.txt"))}
stats = next(json.loads(l) for l in reversed(open(f"{d}/stderr.txt").read().splitlines()) if l.startswith("{"))
fps = stats["frames_per_second"] + [0] * 60
# The app's second k began at or after the script's second k (glfwInit follows the launch), and
# under load up to a second later: a second of the app wholly inside [a, b] of the script is one
# with k >= a and k + 2 <= b.
def inside(a, b):
    return list(range(math.ceil(a), math.floor(b) - 1))
rest = inside(times["rest"], times["key"])
playing = inside(times["training"] + 1, times["quit"])
key_seconds = range(math.floor(times["key"]), math.ceil(times["key"]) + 2)
scene = json.load(open(f"{d}/scene.json"))
checks = [
    (len(rest) >= 2 and sum(fps[k] for k in rest) <= 1,
     f"at rest: {sum(fps[k] for k in rest)} frames in seconds {rest} (frames per second: {stats['frames_per_second']})"),
    (sum(fps[k] for k in key_seconds) >= 2 and scene["labs"]["explorer"]["seed"] == 2,
     f"R woke it: {sum(fps[k] for k in key_seconds)} frames in seconds {list(key_seconds)}, "
     f"the Explorer's seed {scene['labs']['explorer']['seed']} (want 2)"),
    (len(playing) >= 1 and all(fps[k] >= 1 for k in playing),
     f"Training playing: frames {[fps[k] for k in playing]} in seconds {playing}"),
    (scene["lab"] == "training", f"lab on screen at the end: {scene['lab']!r}, want 'training' (Ctrl+6)"),
]
for ok, what in checks:
    print(("ok: " if ok else "FAIL: ") + what)
sys.exit(0 if all(ok for ok, _ in checks) else 1)
PY
