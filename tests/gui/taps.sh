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
# Then the keyboard and one-click habits (Explorer, 1280×720): one click in x₂'s field, 9, Enter
# types x₂ = 9; Tab shows the keyboard focus where the click left it (x₂), ← moves it to x₁,
# Enter, 7, Enter types x₁ = 7; Esc closes the File menu
# (Ctrl+2 then switches labs: it would not while a menu is open).
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
        elif [ "${step#click:}" != "$step" ]; then
            xy=${step#click:}
            xdotool mousemove "${xy%,*}" "${xy#*,}" click 1
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
# x₂'s field at (222, 211), the File menu at (22, 14): the default theme at 1280×720.
"$xvfb" "${screen[@]}" bash "$0" --inner "$app" "$dir" keyboard click:222,211 9 Return Tab Left Return 7 Return \
    click:22,14 Escape ctrl+2 || exit 1
python3 - "$dir/keys.json" "$dir/click.json" "$dir/keyboard.json" <<'PY' || exit 1
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
typed = json.load(open(sys.argv[3]))
x = typed["labs"]["explorer"]["x"]
checks += [
    (x[1] == 9, f"x₂ = {x[1]}, want 9: one click in the field, then typing"),
    (x[0] == 7, f"x₁ = {x[0]}, want 7: Tab, ←, Enter, typing"),
    (typed["lab"] == "invariance", f"lab {typed['lab']!r}, want 'invariance': Esc closed the File menu, then Ctrl+2"),
]
for ok, what in checks:
    print(("ok: " if ok else "FAIL: ") + what)
sys.exit(0 if all(ok for ok, _ in checks) else 1)
PY
