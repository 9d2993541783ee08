#!/usr/bin/env bash
# No lost key press (gui.taps in CMakeLists.txt):   taps.sh NORMLAB XVFB_RUN WORKDIR
# normlab runs with a slowed frame (--frame-delay 250: a slow classroom PC) under Xvfb, and
# xdotool taps keys for 10 ms each, far shorter than a frame. Each tap must act exactly once:
#   R, R        — the Explorer's random x: the seed advances by one per use (1 → 3)
#   Ctrl+Z      — undoes the second R (seed 2, not 1: a doubled undo would show)
#   Ctrl+2      — switches to the Invariance lab
#   D           — the Invariance lab's δ = 1 (from 10)
#   Ctrl+3      — the Worked example
#   Ctrl+Z      — undoes δ = 1 and brings the Invariance lab back (the edit's lab)
#   Ctrl+Q      — quits; --dump-session prints the scene, which is checked: a lost or doubled tap
#                 leaves another seed, δ or lab (a lost D: the second Ctrl+Z undoes an R instead).
# Prints "ok: …" per check; exits 1 at the first failure.
set -u
if [ "${1:-}" = "--inner" ]; then   # inside the X server
    app=$2 dir=$3
    "$app" --lab explorer --frame-delay 250 --autosave "$dir/autosave.json" --dump-session \
        >"$dir/session.json" 2>"$dir/stderr.txt" &
    pid=$!
    wid=$(timeout 30 xdotool search --sync --onlyvisible --name '^NormLab$' | head -n 1)
    [ -n "$wid" ] || { kill "$pid"; echo "FAIL: no NormLab window within 30 s"; exit 1; }
    xdotool mousemove --sync 5 300   # the pointer over the window: it gets the keys (no window manager)
    sleep 2                          # the first frames
    tap() { xdotool key --delay 10 "$1"; sleep 1; }
    tap r
    tap r
    tap ctrl+z
    tap ctrl+2
    tap d
    tap ctrl+3
    tap ctrl+z
    xdotool key --delay 10 ctrl+q
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    if kill -0 "$pid" 2>/dev/null; then
        kill "$pid"
        echo "FAIL: Ctrl+Q did not quit within 20 s"
        exit 1
    fi
    wait "$pid" || { echo "FAIL: normlab exited $?: $(cat "$dir/stderr.txt")"; exit 1; }
    exit 0
fi

app=$1 xvfb=$2 dir=$3
rm -rf "$dir"
mkdir -p "$dir/home"
export HOME="$dir/home"
unset XDG_DATA_HOME XDG_CONFIG_HOME
"$xvfb" -a -s "-screen 0 1280x720x24" bash "$0" --inner "$app" "$dir" || exit 1
echo "ok: normlab quit on a 10 ms Ctrl+Q"
python3 - "$dir/session.json" <<'PY' || exit 1
import json, sys
scene = json.load(open(sys.argv[1]))
seed = scene["labs"]["explorer"]["seed"]
delta = scene["labs"]["invariance"]["delta"]
checks = [
    (seed == 2, f"explorer seed {seed}, want 2: R, R, Ctrl+Z each once"),
    (delta == 10, f"invariance δ {delta}, want 10: D, then its undo"),
    (scene["lab"] == "invariance", f"lab on screen {scene['lab']!r}, want 'invariance': Ctrl+2, Ctrl+3, "
                                   "and the undo of D brought it back"),
]
for ok, what in checks:
    print(("ok: " if ok else "FAIL: ") + what)
sys.exit(0 if all(ok for ok, _ in checks) else 1)
PY
