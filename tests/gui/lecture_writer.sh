#!/usr/bin/env bash
# The lecture writer (app/shell/lecture_writer.hpp) in one process (gui.lecture_writer):
#   lecture_writer.sh NORMLAB XVFB_RUN SHIPPED_LECTURE WORKDIR
# normlab opens the shipped lecture on the Explorer and, through --edit-lecture (the Slides
# panel's own functions), adds the view as a slide (two figures, a title, a caption) — which asks
# where to place a copy, since the lecture is shipped — places it, moves slide 3 to 1, deletes
# slide 2, undoes that (Ctrl+Z's path) and shows the Slides panel; then --check-layout draws every
# slide's lab with the panel at 1024×768 in the projector theme. Checks:
# 1. the shipped lecture is byte for byte as it was; the copy holds 10 slides in the order those
#    edits give, the new slide's scene beside it (title, caption, figures), every scene path
#    relative to the copy's folder and readable;
# 2. the new scene re-opens to the Explorer with the session the view had;
#    (slide 2 is back: the undo took the delete back, not a lab's edit);
# 3. the panel lists the slides ("3.  Mean removed") on every page;
# 4. no text of the panel overlaps another of the panel, is clipped or has a number split.
# Prints "ok: …" per check; exits 1 at the first failure.
set -u
. "$(dirname "$0")/../lib.sh"
app=$1 xvfb=$2 shipped=$3 dir=$4
fresh_dir "$dir"
before=$(sha256sum <"$shipped")
steps="add explorer_outputs,explorer_summed_inputs | Mean removed | LayerNorm subtracts the mean, RMSNorm keeps it;"
steps+=" place $dir/talk/my.json; move 3 1; delete 2; undo; panel"
"$xvfb" -a -s "-screen 0 1280x720x24" "$app" --check-layout --json --size 1024x768 --theme projector \
    --lecture "$shipped" --lab explorer --edit-lecture "$steps" --text-log "$dir/text.txt" \
    >"$dir/layout.json" 2>"$dir/stderr.txt"
rc=$?
[ "$rc" -le 1 ] || fail "normlab exited $rc: $(cat "$dir/stderr.txt")"   # 1: the labs' own findings
[ "$(sha256sum <"$shipped")" = "$before" ] || fail "the shipped lecture was changed"
echo "ok: the shipped lecture is as it was"

python3 - "$shipped" "$dir/talk/my.json" <<'PY' || fail "the written lecture is not what the edits make"
import json, os, sys
shipped_path, copy_path = sys.argv[1], sys.argv[2]
shipped = json.load(open(shipped_path))["slides"]
copy = json.load(open(copy_path))
assert copy["format"] == "normlab-lecture" and copy["version"] == 1, copy
slides = copy["slides"]
folder = os.path.dirname(copy_path)
def resolved(s, base):
    return os.path.abspath(os.path.join(base, s["scene"]))
# add after slide 1 → [s1, new, s2, s3, …]; move 3 1 → [s2, s1, new, s3, …]; delete 2, undone.
sdir = os.path.dirname(shipped_path)
want = [resolved(shipped[1], sdir), resolved(shipped[0], sdir), os.path.join(folder, "my-explorer.json")]
want += [resolved(s, sdir) for s in shipped[2:]]
got = [resolved(s, folder) for s in slides]
assert got == want, (got, want)
for s in slides:
    assert not os.path.isabs(s["scene"]), s
    assert os.path.isfile(resolved(s, folder)), s
new = slides[2]
assert new["scene"] == "my-explorer.json", new
assert new["title"] == "Mean removed", new
assert new["caption"] == "LayerNorm subtracts the mean, RMSNorm keeps it", new
assert new["figures"] == ["explorer_outputs", "explorer_summed_inputs"], new
scene = json.load(open(os.path.join(folder, "my-explorer.json")))
assert scene["lab"] == "explorer" and scene["title"] == "Mean removed", scene
first = json.load(open(resolved(shipped[0], sdir)))
# The view was slide 1's scene: the saved Explorer holds its x.
assert scene["labs"]["explorer"]["x"] == first["labs"]["explorer"]["x"], (scene["labs"]["explorer"]["x"], first)
PY
echo "ok: the copy holds the edited slides, the new one's scene beside it"
grep -qF "3.  Mean removed" "$dir/text.txt" || fail "the Slides panel does not list the new slide: $(head -40 "$dir/text.txt")"
grep -qF "Move up" "$dir/text.txt" || fail "the Slides panel has no Move up"
echo "ok: the panel lists the slides"

python3 - "$dir/layout.json" <<'PY' || fail "the Slides panel's layout has problems"
import json, sys
report = json.load(open(sys.argv[1]))
panel = lambda w: w.startswith("Slides###slides_panel")
assert report["pages"], "no pages checked"
bad = []
for kind in ("overlaps", "clipped", "split_numbers"):
    for p in report[kind]:
        windows = p.get("windows", [])
        if windows and all(panel(w) for w in windows):
            bad.append((kind, p["texts"], p.get("size")))
assert not bad, bad
print("checked", report["pages"], "pages")
PY
echo "ok: the panel's texts neither overlap, nor are clipped, nor split a number"
