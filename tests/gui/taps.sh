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
# Then a click whose mouse moves on before the next frame: on the Gradients tab (1280×720, the
# default theme: the tab spans x 388–485 at y 52), the pointer at once elsewhere; the click must
# land on the tab (the lab on screen: gradients), not where the pointer is at the next frame.
# Prints "ok: …" per check; exits 1 at the first failure.
set -u
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/window_lib.sh"
if [ "${1:-}" = "--inner" ]; then   # inside the X server: --inner APP DIR NAME KEYS-OR-CLICK…
    app=$2 dir=$3 name=$4
    shift 4
    "$app" --lab explorer --frame-delay 250 --autosave "$dir/$name.autosave.json" --dump-session \
        >"$dir/$name.json" 2>"$dir/$name.stderr.txt" &
    pid=$!
    wid=$(timeout 30 xdotool search --sync --onlyvisible --name '^NormLab$' | head -n 1)
    [ -n "$wid" ] || { kill "$pid"; echo "FAIL: no NormLab window within 30 s"; exit 1; }
    xdotool mousemove --sync 5 300   # the pointer over the window: it gets the keys (no window manager)
    sleep 2                          # the first frames
    for step in "$@"; do
        if [ "$step" = click-tab ]; then
            xdotool mousemove 437 52 click 1 mousemove 900 600   # one command: within milliseconds
        else
            xdotool key --delay 10 "$step"
        fi
        sleep 1
    done
    normlab_quit "$pid" "$dir/$name.stderr.txt"
    exit
fi

app=$1 xvfb=$2 dir=$3
normlab_test_dir "$dir"
screen=(-a -s "-screen 0 1280x720x24")
"$xvfb" "${screen[@]}" bash "$0" --inner "$app" "$dir" keys r r ctrl+z ctrl+2 d ctrl+3 ctrl+z || exit 1
echo "ok: normlab quit on a 10 ms Ctrl+Q"
"$xvfb" "${screen[@]}" bash "$0" --inner "$app" "$dir" click click-tab || exit 1
python3 - "$dir/keys.json" "$dir/click.json" <<'PY' || exit 1
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
clicked = json.load(open(sys.argv[2]))["lab"]
checks.append((clicked == "gradients", f"after the click on the Gradients tab: {clicked!r}, want 'gradients'"))
for ok, what in checks:
    print(("ok: " if ok else "FAIL: ") + what)
sys.exit(0 if all(ok for ok, _ in checks) else 1)
PY
