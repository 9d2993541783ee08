#!/usr/bin/env bash
# The file dialogs as a user meets them (gui.dialogs in CMakeLists.txt):
#   dialogs.sh NORMLAB XVFB_RUN SCENE WORKDIR
# normlab runs under Xvfb with --text-log (the texts of the latest frame, one per line), driven by
# xdotool; each check reads what the window says and what is on disk.
# 1. Save scene as… with the name of a file that exists ("foo", foo.json there): the button says
#    Replace and the dialog says "(foo.json exists)"; Esc leaves foo.json as it was; a new name
#    says Save and writes it; the taken name again, Enter (the Replace button): replaced.
# 2. A scene whose training CSV lies outside its folder: the app asks before reading it (the path
#    on screen); Esc ("Don't read") keeps the labs on their own data (the dumped scene has no CSV)
#    and the status line says so.
# 3. A scene whose CSV name is a link to a file outside its folder: the question names where it
#    leads, not only the innocent name.
# 4. A scene's CSV inside its folder, swapped for a link to a file outside after the scene opened:
#    Reset (R) does not read it; a second question names the path and where it now leads; Esc
#    ("Don't read") says so in the status line.
# 5. Ctrl+S on a shipped scene (assets/) asks where to save a copy and leaves the file as it is.
# Prints "ok: …" per check; exits 1 at the first failure.
set -u
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/window_lib.sh"   # wait_for, wait_gone

# Inside the X server: --inner APP DIR NAME ARGS… runs one scripted session.
if [ "${1:-}" = "--inner" ]; then
    app=$2 dir=$3 name=$4
    shift 4
    scene_file=${2:-}   # the file after --scene
    log="$dir/$name.text.txt"
    "$app" --autosave "$dir/$name.autosave.json" --text-log "$log" --dump-session "$@" \
        >"$dir/$name.json" 2>"$dir/$name.stderr.txt" &
    pid=$!
    wid=$(timeout 30 xdotool search --sync --onlyvisible --name '^NormLab$' | head -n 1)
    [ -n "$wid" ] || { kill "$pid"; fail "no NormLab window within 30 s"; }
    xdotool mousemove --sync 5 300   # the pointer over the window: it gets the keys (no window manager)
    wait_for "Explorer" "$log" || fail "no text log from the window"
    save_as() {   # opens Save scene as… and types $1 in its path field
        wait_gone "Save scene as" "$log" || fail "the last dialog did not close"
        xdotool key ctrl+shift+s
        wait_for "Save scene as" "$log" || fail "Ctrl+Shift+S opened no dialog: $(cat "$log")"
        sleep 1   # the path field takes focus a frame after the dialog shows
        # Ctrl+A selects the field's text once the field has focus (a frame after the dialog
        # shows): under load that frame can come late, so select and type until the field holds
        # exactly the path.
        for _ in 1 2 3 4 5; do
            sleep 0.5
            xdotool key ctrl+a
            xdotool type --delay 20 "$1"
            for _ in $(seq 1 50); do
                grep -qxF -- "$1" "$log" && return 0
                sleep 0.2
            done
        done
        fail "the path field does not show $1 alone: $(cat "$log")"
    }
    case "$name" in
        save)
            before=$(sha256sum <"$scene_file")
            xdotool key ctrl+s
            wait_for "Save scene as" "$log" || fail "Ctrl+S on a shipped scene did not ask where: $(cat "$log")"
            wait_for "is one of NormLab's own scenes" "$log" || fail "Ctrl+S on a shipped scene does not say why it asks"
            xdotool key Escape
            wait_gone "Save scene as" "$log" || fail "Esc did not close the dialog"
            [ "$(sha256sum <"$scene_file")" = "$before" ] || fail "Ctrl+S changed the shipped scene"
            echo "ok: Ctrl+S on a shipped scene asks where and leaves the shipped file as it is"
            save_as "$dir/files/foo"
            wait_for "(foo.json exists)" "$log" || fail "a taken name does not say it exists"
            grep -qx "Replace" "$log" || fail "the button for a taken name does not say Replace"
            echo "ok: a taken name shows Replace and (foo.json exists)"
            xdotool key Escape
            wait_gone "Save scene as" "$log" || fail "Esc did not close the dialog"
            [ "$(cat "$dir/files/foo.json")" = "ORIGINAL" ] || fail "Esc changed foo.json"
            save_as "$dir/files/fresh"
            grep -qx "Save" "$log" || fail "the button for a new name does not say Save"
            grep -qx "Replace" "$log" && fail "a new name shows Replace"
            xdotool key Return
            for _ in $(seq 1 150); do [ -s "$dir/files/fresh.json" ] && break; sleep 0.2; done
            python3 -c "import json,sys; assert json.load(open(sys.argv[1]))['format'] == 'normlab-scene'" \
                "$dir/files/fresh.json" || fail "Save did not write fresh.json as a scene"
            echo "ok: Esc keeps foo.json; a new name says Save and writes fresh.json"
            save_as "$dir/files/foo"
            wait_for "(foo.json exists)" "$log" || fail "the taken name is not shown as taken the second time"
            xdotool key Return
            for _ in $(seq 1 150); do [ "$(head -c 8 "$dir/files/foo.json")" != "ORIGINAL" ] && break; sleep 0.2; done
            python3 -c "import json,sys; assert json.load(open(sys.argv[1]))['format'] == 'normlab-scene'" \
                "$dir/files/foo.json" || fail "Enter on Replace did not replace foo.json with the scene"
            echo "ok: Enter on Replace replaces foo.json"
            ;;
        outside)
            wait_for "Read files outside the scene's folder?" "$log" || fail "no question before reading outside files"
            # the path may come a frame after the question (the dialog sizes itself first)
            wait_for "$dir/data/points.csv" "$log" || fail "the question does not name the file"
            echo "ok: a scene's CSV outside its folder is asked for, by name"
            xdotool key Escape
            wait_for "Not read: $dir/data/points.csv" "$log" || fail "the status line does not say the file was not read"
            ;;
        link)
            wait_for "Read files outside the scene's folder?" "$log" || fail "no question before reading through a link"
            wait_for "→  $dir/data/secret.csv" "$log" || fail "the question does not say where the link leads: $(cat "$log")"
            echo "ok: the question names where a link leads"
            xdotool key Escape
            ;;
        race)
            sleep 2   # the training lab reads the CSV, still a file inside the folder
            ln -sf ../data/secret.csv "$dir/race/inside.csv.new" && mv -f "$dir/race/inside.csv.new" "$dir/race/inside.csv"
            xdotool key r
            wait_for "A data file now leads outside the scene's folder" "$log" ||
                fail "no question after the CSV became a link to outside: $(cat "$log")"
            wait_for "→  $dir/data/secret.csv" "$log" || fail "the question does not say where the file now leads"
            echo "ok: a CSV swapped for a link to outside is not read, and the question says where it leads"
            xdotool key Escape
            wait_for "Not read: $dir/data/secret.csv" "$log" || fail "the status line does not say it was not read"
            ;;
    esac
    xdotool key ctrl+q
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -0 "$pid" 2>/dev/null && { kill "$pid"; fail "Ctrl+Q did not quit within 20 s"; }
    wait "$pid" || fail "normlab exited $?: $(cat "$dir/$name.stderr.txt")"
    exit 0
fi

app=$1 xvfb=$2 scene=$3 dir=$4
normlab_test_dir "$dir" files talk data
screen=(-a -s "-screen 0 1280x720x24")

printf 'ORIGINAL' >"$dir/files/foo.json"
"$xvfb" "${screen[@]}" bash "$0" --inner "$app" "$dir" save --scene "$scene" --lab explorer || exit 1

printf 'x1,x2,label\n0,1,0\n1,0,1\n' >"$dir/data/points.csv"
cat >"$dir/talk/outside.json" <<'JSON'
{"format": "normlab-scene", "version": 1, "lab": "explorer", "labs": {"training": {"csv_path": "../data/points.csv"}}}
JSON
"$xvfb" "${screen[@]}" bash "$0" --inner "$app" "$dir" outside --scene "$dir/talk/outside.json" || exit 1
python3 - "$dir/outside.json" <<'PY' || fail "after Don't read the scene still names the CSV"
import json, sys
training = json.load(open(sys.argv[1]))["labs"]["training"]
assert training.get("csv_path", "") == "", training
PY
echo "ok: Don't read keeps the labs on their own data"

mkdir -p "$dir/race"
printf 'x1,x2,label\n9,9,1\n8,8,0\n' >"$dir/data/secret.csv"
ln -s ../data/secret.csv "$dir/talk/link.csv"
cat >"$dir/talk/link.json" <<'JSON'
{"format": "normlab-scene", "version": 1, "lab": "training", "labs": {"training": {"dataset": "csv", "csv_path": "link.csv"}}}
JSON
"$xvfb" "${screen[@]}" bash "$0" --inner "$app" "$dir" link --scene "$dir/talk/link.json" || exit 1

cp "$dir/data/points.csv" "$dir/race/inside.csv"
cat >"$dir/race/race.json" <<'JSON'
{"format": "normlab-scene", "version": 1, "lab": "training", "labs": {"training": {"dataset": "csv", "csv_path": "inside.csv"}}}
JSON
"$xvfb" "${screen[@]}" bash "$0" --inner "$app" "$dir" race --scene "$dir/race/race.json" || exit 1
