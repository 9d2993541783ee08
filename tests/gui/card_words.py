#!/usr/bin/env python3
"""The Training slide's cards set their words alike (gui.slide_6_card_words_* in CMakeLists.txt):
    card_words.py NORMLAB XVFB_RUN LECTURE WxH LOG
normlab shows the lecture's slide 6 (four variants' decision maps, each card's bold name and test
accuracy under its map) in presenter view, projector theme, at WxH for 20 frames, and logs each
text with its box (--text-log --text-boxes). Every card's result must be set as every other's:
the same words ("test 98.4%" in all or in none), the same font (box height), in the same place
relative to its name (beside it on the same top, or under it). Prints "ok: …" or "FAIL: …".
"""
import re
import subprocess
import sys

NAMES = {"None", "LayerNorm", "RMSNorm", "pRMSNorm"}
RESULT = re.compile(r"^(test )?[0-9]{1,3}\.[0-9]%$")
SWATCH_SLACK = 80   # px: a result under its name starts left of the name, by the swatch and a gap


def run(app, xvfb, lecture, size, log):
    w, h = size.split("x")
    cmd = [xvfb, "-a", "-s", f"-screen 0 {w}x{h}x24", app, "--lecture", lecture, "--slide", "6", "--presenter",
           "--theme", "projector", "--size", size, "--frames", "20", "--lang", "en", "--text-log", log, "--text-boxes"]
    for _ in range(2):   # an X server that failed to start: once more
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode == 0:
            return
    sys.exit(f"FAIL: normlab exited {done.returncode}: {done.stderr[-600:]}")


def boxes(log):
    out = []
    for line in open(log, encoding="utf-8").read().splitlines():
        box, _, text = line.partition("\t")
        x0, y0, x1, y1 = (float(v) for v in box.split())
        out.append((x0, y0, x1, y1, text))
    return out


def main():
    app, xvfb, lecture, size, log = sys.argv[1:6]
    run(app, xvfb, lecture, size, log)
    texts = boxes(log)
    names = [t for t in texts if t[4] in NAMES]
    cards = []
    for r in (t for t in texts if RESULT.match(t[4])):
        # Its card's name: on its line or the nearest above, the rightmost that starts left of it.
        mine = [n for n in names if n[1] <= r[1] + 5 and n[0] <= r[0] + SWATCH_SLACK]
        if not mine:
            sys.exit(f"FAIL: {size}: no name for the result {r[4]!r} at {r[:4]}")
        n = max(mine, key=lambda n: (n[1], n[0]))
        beside = r[0] >= n[2]
        cards.append({"name": n[4], "result": r[4], "test": r[4].startswith("test "),
                      "result_h": round(r[3] - r[1]), "name_h": round(n[3] - n[1]), "beside": beside,
                      "dy": round(r[1] - n[1]), "dx": round(r[0] - (n[2] if beside else n[0]))})
    if sorted(c["name"] for c in cards) != sorted(NAMES):
        sys.exit(f"FAIL: {size}: want one result under each of the four maps, found {[(c['name'], c['result']) for c in cards]}")
    shown = "; ".join(f"{c['name']} {c['result']} (h {c['result_h']}, {'beside' if c['beside'] else 'below'}, "
                      f"dx {c['dx']}, dy {c['dy']})" for c in cards)
    problems = []
    for key, what in [("test", "the words (\"test\" in some results only)"), ("result_h", "the result's font"),
                      ("name_h", "the name's font"), ("beside", "the result's place (beside or under the name)"),
                      ("dx", "the result's distance from its name"), ("dy", "the result's height against its name")]:
        if len({c[key] for c in cards}) > 1:
            problems.append(what)
    if problems:
        sys.exit(f"FAIL: {size}: the cards differ in " + ", ".join(problems) + ": " + shown)
    print(f"ok: {size}: every card alike: {shown}")


main()
