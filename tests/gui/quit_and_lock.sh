#!/usr/bin/env bash
# Quitting by signal, and two NormLabs with one autosave (gui.quit_and_lock in CMakeLists.txt):
#   quit_and_lock.sh NORMLAB XVFB_RUN SCENE WORKDIR
# 1. SIGTERM, SIGINT, SIGHUP (the terminal closed) and SIGQUIT, sent within a second of the window
#    appearing (before the 3 s autosave timer): the final autosave holds exactly the scene's
#    session, and stderr says what was saved; after SIGQUIT the process dies of SIGQUIT (its core
#    dump as asked; ulimit -c 0 here). The same when the X server goes away under the app (Xvfb
#    killed): the session is saved inside Xlib's I/O error handler, exit 1.
# 2. A second NormLab with the same autosave file says so and uses its own (FILE-2.json); once the
#    first is killed (-9), its lock is taken over by the next one, which says nothing.
# Prints "ok: …" per check; exits 1 at the first failure.
set -u
. "$(dirname "$0")/../lib.sh"
app=$1 xvfb=$2 scene=$3 dir=$4
normlab_test_dir "$dir"
save="$dir/autosave.json"
screen=(-a -s "-screen 0 1280x720x24")

# start_app LOG ARGS...: an interactive normlab under its own Xvfb; its pid in $dir/pid once its
# window is on screen, its Xvfb runner's in $xvfb_pid. SIGQUIT at its default, as in a terminal (a
# background job of a script starts with it ignored, which normlab then keeps).
start_app() {
    local log=$1
    shift
    rm -f "$dir/pid" "$dir/display" "$dir/server"
    "$xvfb" "${screen[@]}" bash -c 'echo "$XVFB_PID" > "$1/server"; echo "$DISPLAY" > "$1/display"; echo $$ > "$1/pid.tmp"; shift; exec env --default-signal=QUIT "$@"' _ \
        "$dir" "$app" "$@" >"$log" 2>&1 &
    xvfb_pid=$!
    for _ in $(seq 1 120); do
        [ -s "$dir/display" ] && [ -s "$dir/pid.tmp" ] && break
        sleep 0.25
    done
    DISPLAY=$(cat "$dir/display") timeout 60 xdotool search --sync --onlyvisible --name NormLab >/dev/null 2>&1 ||
        fail "no NormLab window: $(cat "$log")"
    mv "$dir/pid.tmp" "$dir/pid"
}

# end_status NAME: waits up to 30 s for the app started last to end; its exit status in $code.
end_status() {
    for _ in $(seq 1 120); do
        kill -0 "$xvfb_pid" 2>/dev/null || break
        sleep 0.25
    done
    if kill -0 "$xvfb_pid" 2>/dev/null; then
        kill -9 "$(cat "$dir/pid")" 2>/dev/null
        fail "$1: normlab did not end within 30 s: $(cat "$dir/$1.log")"
    fi
    wait "$xvfb_pid"   # the runner exits with normlab's status
    code=$?
}

"$xvfb" "${screen[@]}" "$app" --scene "$scene" --frames 2 --dump-session >"$dir/expected.json" 2>/dev/null ||
    fail "normlab --scene --dump-session failed"

# [1] Signals ------------------------------------------------------------------------------
ulimit -c 0   # SIGQUIT's core dump: asked for, not kept
for sig in TERM INT HUP QUIT; do
    rm -f "$save"
    start_app "$dir/$sig.log" --scene "$scene" --autosave "$save"
    sleep 0.3
    kill -"$sig" "$(cat "$dir/pid")"
    end_status "$sig"
    grep -q "normlab: SIG$sig: saved the session to $save" "$dir/$sig.log" ||
        fail "SIG$sig: stderr does not say what was saved: $(cat "$dir/$sig.log")"
    cmp -s "$save" "$dir/expected.json" || fail "SIG$sig: the final autosave is not the scene's session"
    [ "$code" -eq $((128 + $(kill -l "$sig"))) ] || fail "SIG$sig: normlab exited $code, not 128 + SIG$sig"
    echo "ok: SIG$sig saves the session first and says so (exit $code)"
done

# [1b] The X server goes away under the app -------------------------------------------------
rm -f "$save"
start_app "$dir/xlost.log" --scene "$scene" --autosave "$save"
sleep 0.3
kill -9 "$(cat "$dir/server")"   # the app's Xvfb (tests/xvfb_run.sh)
end_status xlost
grep -q "normlab: the connection to the X server was lost: saved the session to $save" "$dir/xlost.log" ||
    fail "a lost X server: stderr does not say what was saved: $(cat "$dir/xlost.log")"
cmp -s "$save" "$dir/expected.json" || fail "a lost X server: the final autosave is not the scene's session"
[ "$code" -eq 1 ] || fail "a lost X server: normlab exited $code, expected 1"
echo "ok: a lost X server: the session is saved first and said"

# [2] A second NormLab ----------------------------------------------------------------------
start_app "$dir/first.log" --autosave "$save"
first=$(cat "$dir/pid")
"$xvfb" "${screen[@]}" "$app" --autosave "$save" --frames 3 >/dev/null 2>"$dir/second.log"
grep -q "normlab: Another NormLab (pid $first) keeps autosave.json: this window autosaves to $dir/autosave-2.json" \
    "$dir/second.log" || fail "the second NormLab does not say whose the autosave is: $(cat "$dir/second.log")"
[ -f "$dir/autosave-2.json" ] || fail "the second NormLab did not write its own autosave"
echo "ok: a second NormLab uses its own autosave and says so"

kill -9 "$first"
# The kernel frees a killed process's memory before its files (and so its flock): wait until it is gone.
for _ in $(seq 1 120); do
    kill -0 "$first" 2>/dev/null || break
    sleep 0.25
done
"$xvfb" "${screen[@]}" "$app" --autosave "$save" --frames 3 >/dev/null 2>"$dir/third.log"
grep -q "Another NormLab" "$dir/third.log" && fail "a dead NormLab's lock was not taken over: $(cat "$dir/third.log")"
echo "ok: the lock of a killed NormLab is taken over"
exit 0
