#!/usr/bin/env bash
# The autosave and the user's files, end to end (gui.autosave_* in CMakeLists.txt):
#   autosave.sh NORMLAB XVFB_RUN SCENE BAD_SCENE WORKDIR LECTURE
# 1. kill -9: an interactive normlab started with --scene SCENE --autosave F writes F within a few
#    seconds (the session differs from what F held); it is then killed with SIGKILL, and a new
#    normlab --autosave F restores exactly the session that --scene SCENE gives (--dump-session).
# 2. Scripted runs (--frames) neither read nor write the user's autosave (HOME points at WORKDIR).
# 3. A corrupt autosave is kept beside it as F.corrupt; the app starts from the defaults. A link
#    named F.corrupt is neither written through nor replaced (its target stays as it was), and no
#    older copy is replaced: F-2.corrupt, F-3.corrupt, … (the safe writer's next free name).
# 4. A bad --scene is refused (exit 2, one line) and F is left as it was.
# 5. --scene and --lecture keep the previous session: F holding another session is copied to
#    F-previous.json (then -2, …: none replaced) before the first autosave, said once on stderr and
#    on the status line; F holding the same session is not copied.
# 6. A lock file that is a symbolic link is not used (its target stays as it was): the app says so
#    and autosaves to F-2.json, as a second NormLab would.
# Prints "ok: …" per check; exits 1 at the first failure.
set -u
. "$(dirname "$0")/../lib.sh"
app=$1 xvfb=$2 scene=$3 bad_scene=$4 dir=$5 lecture=$6
normlab_test_dir "$dir"
save="$dir/autosave.json"
screen=(-a -s "-screen 0 1600x1000x24")

# Xvfb did not start ("xvfb_run.sh: error: …"): nothing was run; try again.
run_scripted() {   # run_scripted OUT ARGS... → normlab's exit code; stdout in OUT
    local out=$1 code
    shift
    for attempt in 1 2 3; do
        "$xvfb" "${screen[@]}" "$app" "$@" >"$out" 2>"$out.err"
        code=$?
        grep -q "xvfb_run.sh: error:" "$out.err" || break
    done
    return $code
}

# [1] kill -9 ----------------------------------------------------------------------------
"$xvfb" "${screen[@]}" bash -c 'echo $$ > "$1"; exec "$2" --scene "$3" --autosave "$4"' _ \
    "$dir/pid" "$app" "$scene" "$save" >"$dir/interactive.log" 2>&1 &
xvfb_pid=$!
for _ in $(seq 1 300); do   # up to 30 s: the window comes up, then the first autosave
    [ -s "$save" ] && break
    sleep 0.1
done
pid=$(cat "$dir/pid" 2>/dev/null || true)
if [ ! -s "$save" ]; then
    [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null
    wait "$xvfb_pid" 2>/dev/null
    cat "$dir/interactive.log"
    fail "no autosave within 30 s of the start"
fi
[ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || fail "normlab was not running when its autosave appeared"
echo "ok: the running app wrote $save"
kill -9 "$pid"
wait "$xvfb_pid" 2>/dev/null
kill -0 "$pid" 2>/dev/null && fail "normlab survived SIGKILL"
echo "ok: killed with SIGKILL"

run_scripted "$dir/restored.json" --autosave "$save" --frames 3 --dump-session ||
    fail "normlab --autosave F --frames 3 exited $?: $(cat "$dir/restored.json.err")"
run_scripted "$dir/expected.json" --scene "$scene" --frames 3 --dump-session ||
    fail "normlab --scene exited $?: $(cat "$dir/expected.json.err")"
grep -q '"format": "normlab-scene"' "$dir/expected.json" || fail "--dump-session printed no scene"
cmp -s "$dir/restored.json" "$dir/expected.json" ||
    fail "the restored session differs from the scene's: $(diff "$dir/expected.json" "$dir/restored.json" | head -20)"
echo "ok: restarted with --autosave, the session is the scene's exactly"

# [2] Scripted runs leave the user's autosave alone -------------------------------------
user_save="$HOME/.local/share/normlab/autosave.json"
rm -f "$HOME/.config/normlab/recent.json"   # the interactive run above kept its scene there
mkdir -p "$(dirname "$user_save")"
cp "$dir/restored.json" "$user_save"
cp "$user_save" "$dir/user_before.json"
run_scripted "$dir/scripted.json" --frames 3 --dump-session || fail "a scripted run exited $?"
grep -q '"title": ""' "$dir/scripted.json" || fail "a scripted run restored the user's autosave"
cmp -s "$user_save" "$dir/user_before.json" || fail "a scripted run changed the user's autosave"
run_scripted "$dir/scripted2.json" --scene "$scene" --frames 3 || fail "a scripted run with --scene exited $?"
cmp -s "$user_save" "$dir/user_before.json" || fail "a scripted run with --scene changed the user's autosave"
[ -e "$HOME/.config/normlab/recent.json" ] && fail "a scripted run wrote the recent files"
echo "ok: scripted runs neither read nor wrote ~/.local/share/normlab/autosave.json"

# [3] A corrupt autosave is kept aside ----------------------------------------------------
printf '{"format": "normlab-scene", "version": 1, "labs": {"explorer": {"x": [1, ' >"$dir/corrupt.json"
cp "$dir/corrupt.json" "$dir/corrupt_before.json"
run_scripted "$dir/after_corrupt.json" --autosave "$dir/corrupt.json" --frames 3 --dump-session ||
    fail "a corrupt autosave made normlab exit $?"
cmp -s "$dir/corrupt.json.corrupt" "$dir/corrupt_before.json" || fail "the corrupt autosave was not kept as .corrupt"
grep -q '"title": ""' "$dir/after_corrupt.json" || fail "after a corrupt autosave the session is not the default"
echo "ok: a corrupt autosave is kept as autosave.json.corrupt; the app starts from the defaults"

printf 'victim\n' >"$dir/victim.txt"
ln -s "$dir/victim.txt" "$dir/linked.json.corrupt"
printf '{"format": "normlab-scene", "version": 1, "labs": {"explorer": {"x": [2, ' >"$dir/linked.json"
cp "$dir/linked.json" "$dir/linked_before.json"
run_scripted "$dir/after_linked.json" --autosave "$dir/linked.json" --frames 3 || fail "a corrupt autosave made normlab exit $?"
[ "$(cat "$dir/victim.txt")" = victim ] || fail "the link named .corrupt was written through: victim.txt holds $(head -c 80 "$dir/victim.txt")"
[ -L "$dir/linked.json.corrupt" ] || fail "the link named .corrupt was replaced"
cmp -s "$dir/linked.json-2.corrupt" "$dir/linked_before.json" || fail "the corrupt autosave was not kept as linked.json-2.corrupt"
printf '{"format": "normlab-scene", "version": 1, "labs": {"explorer": {"x": [3, ' >"$dir/linked.json"
run_scripted "$dir/after_linked.json" --autosave "$dir/linked.json" --frames 3 || fail "a corrupt autosave made normlab exit $?"
cmp -s "$dir/linked.json-2.corrupt" "$dir/linked_before.json" || fail "an older .corrupt copy was replaced"
grep -q '"x": \[3, ' "$dir/linked.json-3.corrupt" || fail "the second corrupt autosave was not kept as linked.json-3.corrupt"
[ "$(cat "$dir/victim.txt")" = victim ] || fail "victim.txt changed"
echo "ok: a link named .corrupt is left alone (and its target); older copies are kept (-2, -3)"

# [4] A bad scene is refused; the autosave stays ------------------------------------------
cp "$save" "$dir/save_before.json"
"$app" --scene "$bad_scene" --autosave "$save" --frames 3 >"$dir/bad.out" 2>"$dir/bad.err"
code=$?
[ "$code" -eq 2 ] || fail "a bad --scene exited $code, expected 2"
[ "$(wc -l <"$dir/bad.err")" -eq 1 ] || fail "a bad --scene printed more than one line: $(cat "$dir/bad.err")"
grep -q "labs.explorer.x\[2\] is not a number" "$dir/bad.err" || fail "the message does not say where: $(cat "$dir/bad.err")"
cmp -s "$save" "$dir/save_before.json" || fail "a bad --scene changed the autosave"
echo "ok: a bad --scene is refused in one line and the autosave is untouched"

# [5] --scene and --lecture keep the previous session -------------------------------------
keep="$dir/keep.json"
cp "$dir/scripted.json" "$keep"   # the defaults: another session than the scene's
run_scripted "$dir/keep.out" --scene "$scene" --autosave "$keep" --frames 3 || fail "normlab --scene exited $?"
grep -q "normlab: the previous session is kept in $dir/keep-previous.json" "$dir/keep.out.err" ||
    fail "--scene does not say where the previous session is: $(cat "$dir/keep.out.err")"
cmp -s "$dir/keep-previous.json" "$dir/scripted.json" || fail "the previous session was not kept as keep-previous.json"
cmp -s "$keep" "$dir/expected.json" || fail "the autosave does not hold the scene's session"
run_scripted "$dir/keep.out" --scene "$scene" --autosave "$keep" --frames 3 || fail "normlab --scene exited $?"
grep -q "previous session" "$dir/keep.out.err" && fail "the same session was kept again: $(cat "$dir/keep.out.err")"
[ -e "$dir/keep-previous-2.json" ] && fail "the same session was copied to keep-previous-2.json"
cp "$dir/scripted.json" "$keep"
run_scripted "$dir/keep.out" --lecture "$lecture" --autosave "$keep" --frames 3 || fail "normlab --lecture exited $?"
grep -q "normlab: the previous session is kept in $dir/keep-previous-2.json" "$dir/keep.out.err" ||
    fail "--lecture does not say where the previous session is: $(cat "$dir/keep.out.err")"
cmp -s "$dir/keep-previous.json" "$dir/scripted.json" || fail "an older kept session was replaced"
cmp -s "$dir/keep-previous-2.json" "$dir/scripted.json" || fail "the previous session was not kept as keep-previous-2.json"
# Interactive: the timer's first autosave keeps it and the status line says so.
cp "$dir/scripted.json" "$keep"
run_scripted "$dir/keep.out" --scene "$scene" --autosave "$keep" --frames 50 --frame-delay 100 --text-log "$dir/keep.log" ||
    fail "normlab --scene exited $?"
grep -q "The previous session is kept in $dir/keep-previous-3.json" "$dir/keep.log" ||
    fail "the status line does not say where the previous session is: $(cat "$dir/keep.log")"
echo "ok: --scene and --lecture keep the previous session (keep-previous.json, -2, -3) and say so once"

# [6] A lock file that is a symbolic link is not used ---------------------------------------
printf 'victim\n' >"$dir/lock_victim.txt"
ln -s "$dir/lock_victim.txt" "$dir/locked.json.lock"
run_scripted "$dir/locked.out" --autosave "$dir/locked.json" --frames 3 || fail "normlab exited $?"
grep -q "normlab: the lock file $dir/locked.json.lock is not used (it is a symbolic link, not a regular file): this window autosaves to $dir/locked-2.json" \
    "$dir/locked.out.err" || fail "a linked lock file is not refused with a warning: $(cat "$dir/locked.out.err")"
[ -f "$dir/locked-2.json" ] || fail "the app did not autosave to locked-2.json"
[ -e "$dir/locked.json" ] && fail "the app autosaved to locked.json without its lock"
[ "$(cat "$dir/lock_victim.txt")" = victim ] || fail "the lock file's target changed"
echo "ok: a lock file that is a symbolic link is not used; the app says so and autosaves to locked-2.json"
