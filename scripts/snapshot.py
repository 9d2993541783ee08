#!/usr/bin/env python3
"""Records what a build of NormLab outputs, and compares two such records (a refactor's check).

  scripts/snapshot.py record BUILD OUT [--only cli,scenes,screens] [--skip-scene NAME] [--scene NAME]
  scripts/snapshot.py compare OLD NEW [--noise OLD2]

record writes into OUT:
  cli/<test>.txt      for each cli.* ctest request (args and stdin read from
                      `ctest --show-only=json-v1`): exit code, stdout, stderr, and the files it
                      wrote (bytes as text, or a hash for binary files); timings masked by compare
  scenes/<scene>/     `normlab-cli export --list` and `--all` (every figure, every format) of
                      each scene in assets/scenes
  screens/<lab>.png   a screenshot of each lab at 1280x720 under Xvfb (--frames 30)
compare prints every file that differs (bytes; for PNGs also the count of differing pixels) and
exits 1 if any does, 0 when the records are identical. Figures of measured compute time
(training_*_vs_time, training_step_time) are listed but not counted. --noise OLD2: a second record of the old
build; a file that already differs between OLD and OLD2 (a lab that trains while the frames
are drawn, a timing) is listed but not counted.
"""
import hashlib
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

LABS = ["explorer", "invariance", "worked", "gradients", "geometry", "training", "gpu", "depth",
        "precision"]
# Keys and text fields that hold wall-clock measurements, not results.
TIMING_KEY = re.compile(r"(seconds|_ms$|^ms|time|fps|elapsed|per_second|speed|throughput)", re.I)
TIMING_FIGURE = re.compile(r"(_vs_time|step_time)\.")   # figures that plot measured compute time
TIMING_TEXT = re.compile(r"\d+(\.\d+)?\s*(ms|s|µs|us|steps/s|fps)\b")


def strip_timing_json(value):
    if isinstance(value, dict):
        return {k: ("<time>" if TIMING_KEY.search(k) else strip_timing_json(v)) for k, v in value.items()}
    if isinstance(value, list):
        return [strip_timing_json(v) for v in value]
    return value


def substitute(text, subs):
    for old, new in subs:
        text = text.replace(old, new)
    return text


def strip_timing(text, bench):
    """The text with wall-clock measurements masked (a bench's every decimal number)."""
    try:
        parsed = json.loads(text)
    except ValueError:
        parsed = None
    if isinstance(parsed, (dict, list)):
        text = json.dumps(strip_timing_json(parsed), indent=1, ensure_ascii=False) + "\n"
        return re.sub(r"-?\d+\.\d+(e[-+]?\d+)?", "<num>", text) if bench else text
    text = re.sub(r"\.tmp\.\d+\.\d+", ".tmp.<pid>", text)   # atomic saves' temporary files
    lines = []
    for line in text.splitlines(keepends=True):
        if bench:
            line = re.sub(r" +", " ", re.sub(r"\d+(\.\d+)?", "<num>", line))
        elif re.search(r"(time|took|elapsed|per step|steps/s|fps|ms\b|wall)", line, re.I):
            line = re.sub(r"\d+%", "<pct>", TIMING_TEXT.sub("<time>", line))
        lines.append(line)
    return "".join(lines)


def strip_record(text, bench):
    """A cli record with each stdout/stderr section's timings masked."""
    parts = re.split(r"(^--- .*\n)", text, flags=re.M)
    return "".join(p if p.startswith("--- ") or i == 0 else strip_timing(p, bench)
                   for i, p in enumerate(parts))


def cli_requests(build):
    """(name, args, stdin, out_files) for each cli.* test, paths as the test gives them."""
    raw = subprocess.run(["ctest", "--test-dir", build, "--show-only=json-v1"], check=True,
                         capture_output=True, text=True).stdout
    requests = []
    for test in json.loads(raw)["tests"]:
        name, cmd = test["name"], test["command"]
        if not name.startswith("cli."):
            continue
        if os.path.basename(cmd[0]) == "normlab-cli":
            requests.append((name, cmd[1:], None))
            continue
        defs = {}
        for arg in cmd[1:]:
            if arg.startswith("-D") and "=" in arg:
                key, _, val = arg[2:].partition("=")
                defs[key] = val
        script = os.path.basename(cmd[-1])
        split = lambda s: [a for a in s.split("|")] if s else []
        if script == "run_cli.cmake":
            requests.append((name, split(defs.get("ARGS", "")), defs.get("INPUT") or None))
        elif script == "determinism.cmake":
            requests.append((name, [defs["COMMAND"]] + split(defs["ARGS"]), None))
        elif script == "init_differs.cmake":
            requests.append((name, split(defs["ARGS"]), None))
            requests.append((name + ".other", split(defs["ARGS"]) + split(defs["OTHER"]), None))
        elif script == "export_files.cmake":
            out = "OUTDIR/" + os.path.basename(defs["OUT"])
            requests.append((name, ["export", "--scene", defs["SCENE"], "--plot", defs["PLOT"],
                                    "--out", out], None))
        # export_all: the scenes section records every scene fully; the rest (disk full,
        # million-wide eval, files.sh, seeds) check conditions, not outputs.
    return requests


def file_text(path):
    data = open(path, "rb").read()
    if path.endswith(".png"):
        return "png " + hashlib.sha256(data).hexdigest() + "\n"
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return "bytes " + hashlib.sha256(data).hexdigest() + "\n"


def source_root(build):
    for line in open(os.path.join(build, "CMakeCache.txt"), encoding="utf-8"):
        if line.startswith("CMAKE_HOME_DIRECTORY:INTERNAL="):
            return line.split("=", 1)[1].strip()
    raise SystemExit("no CMAKE_HOME_DIRECTORY in the build's cache")


def record_cli(build, out):
    cli = os.path.join(build, "bin", "normlab-cli")
    src = source_root(build)
    os.makedirs(os.path.join(out, "cli"), exist_ok=True)
    raw = subprocess.run(["ctest", "--test-dir", build, "--show-only=json-v1"], check=True,
                         capture_output=True, text=True).stdout
    test_build = None  # the build dir the tests name (the cache may have been moved)
    for test in json.loads(raw)["tests"]:
        for p in test.get("properties", []):
            if p["name"] == "WORKING_DIRECTORY" and test["name"].startswith("cli."):
                test_build = p["value"][: -len("/tests/cli")]
    test_src = os.path.dirname(test_build) if test_build.endswith("/build") else src
    for name, args, stdin in cli_requests(build):
        work = tempfile.mkdtemp(prefix="snap-")
        os.makedirs(os.path.join(work, "OUTDIR"))

        def fix(a):
            a = a.replace(test_build, work).replace(test_src, src)
            return os.path.join(work, a) if a.startswith("OUTDIR/") else a

        args = [fix(a) for a in args]
        stdin_data = open(fix(stdin), "rb").read() if stdin else b""
        run = subprocess.run([cli] + args, input=stdin_data, capture_output=True, cwd=work,
                             env=dict(os.environ, HOME=work))
        subs = [(work, "<WORK>"), (src, "<SRC>")]
        text = "args: " + " ".join(a.replace(work, "<WORK>").replace(src, "<SRC>") for a in args)
        text += "\nexit: %d\n--- stdout\n" % run.returncode
        text += substitute(run.stdout.decode("utf-8", "replace"), subs)
        text += "--- stderr\n" + substitute(run.stderr.decode("utf-8", "replace"), subs)
        for root, _, files in sorted(os.walk(work)):
            for f in sorted(files):
                path = os.path.join(root, f)
                text += "--- file %s\n" % os.path.relpath(path, work) + file_text(path)
        with open(os.path.join(out, "cli", name + ".txt"), "w", encoding="utf-8") as fh:
            fh.write(text)
        shutil.rmtree(work)
    print("cli: done", flush=True)


def record_scenes(build, out, skip, pick):
    cli = os.path.join(build, "bin", "normlab-cli")
    src = source_root(build)
    scenes = sorted(f for f in os.listdir(os.path.join(src, "assets", "scenes")) if f.endswith(".json"))
    for scene in scenes:
        name = scene[:-5]
        if name in skip or (pick and name not in pick):
            continue
        path = os.path.join(src, "assets", "scenes", scene)
        dest = os.path.join(out, "scenes", name)
        shutil.rmtree(dest, ignore_errors=True)
        os.makedirs(dest)
        listing = subprocess.run([cli, "export", "--scene", path, "--list"], capture_output=True)
        run = subprocess.run([cli, "export", "--scene", path, "--all", "--out-dir", dest],
                             capture_output=True)
        subs = [(dest, "<OUT>"), (src, "<SRC>")]
        with open(os.path.join(dest, "_run.txt"), "w", encoding="utf-8") as fh:
            fh.write("list exit %d\n" % listing.returncode)
            fh.write(substitute(listing.stdout.decode() + listing.stderr.decode(), subs))
            fh.write("all exit %d\n" % run.returncode)
            fh.write(substitute(run.stdout.decode() + run.stderr.decode(), subs))
        print("scene %s: exit %d" % (name, run.returncode), flush=True)


def record_screens(build, out):
    app = os.path.join(build, "bin", "normlab")
    dest = os.path.join(out, "screens")
    os.makedirs(dest, exist_ok=True)
    for lab in LABS:
        home = tempfile.mkdtemp(prefix="snap-home-")
        png = os.path.join(dest, lab + ".png")
        run = subprocess.run(["xvfb-run", "-a", "-s", "-screen 0 1280x720x24", app, "--lab", lab,
                              "--size", "1280x720", "--screenshot", png, "--frames", "30"],
                             capture_output=True, env=dict(os.environ, HOME=home,
                                                           XDG_DATA_HOME=home, XDG_CONFIG_HOME=home))
        shutil.rmtree(home)
        print("screen %s: exit %d %s" % (lab, run.returncode, run.stderr.decode()[-300:]), flush=True)


def png_pixels(path):
    """(width, height, rows of RGB(A) bytes) of an 8-bit, non-interlaced PNG."""
    data = open(path, "rb").read()
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, ctype = struct.unpack(">IIBB", body[:10])
            channels = {0: 1, 2: 3, 4: 2, 6: 4}[ctype]
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw, stride = zlib.decompress(idat), width * channels
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(height):
        ftype, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - channels] if x >= channels else 0
            b, c = prev[x], prev[x - channels] if x >= channels else 0
            if ftype == 1: line[x] = (line[x] + a) & 255
            elif ftype == 2: line[x] = (line[x] + b) & 255
            elif ftype == 3: line[x] = (line[x] + (a + b) // 2) & 255
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, channels, rows


def differing_pixels(a, b):
    wa, ha, ca, ra = png_pixels(a)
    wb, hb, cb, rb = png_pixels(b)
    if (wa, ha, ca) != (wb, hb, cb):
        return "size %dx%dx%d vs %dx%dx%d" % (wa, ha, ca, wb, hb, cb)
    count = 0
    for la, lb in zip(ra, rb):
        if la != lb:
            count += sum(1 for x in range(0, len(la), ca) if la[x:x + ca] != lb[x:x + ca])
    return "%d differing pixels of %d" % (count, wa * ha)


def compare(old, new, noise=None):
    def files(root):
        return {os.path.relpath(os.path.join(d, f), root) for d, _, fs in os.walk(root) for f in fs}
    a, b = files(old), files(new)
    bad = 0
    for rel in sorted(a - b):
        print("only in old:", rel); bad += 1
    for rel in sorted(b - a):
        print("only in new:", rel); bad += 1
    for rel in sorted(a & b):
        pa, pb = os.path.join(old, rel), os.path.join(new, rel)
        da, db = open(pa, "rb").read(), open(pb, "rb").read()
        if os.path.basename(rel).startswith("cli."):
            bench = os.path.basename(rel).startswith("cli.bench.")
            da = strip_record(da.decode("utf-8", "replace"), bench)
            db = strip_record(db.decode("utf-8", "replace"), bench)
        if da == db:
            continue
        if TIMING_FIGURE.search(os.path.basename(rel)):
            print("a figure of wall-clock times (not counted):", rel)
            continue
        if noise and os.path.exists(os.path.join(noise, rel)) and \
                open(os.path.join(noise, rel), "rb").read() != open(pa, "rb").read():
            print("varies between two runs of the old build (not counted):", rel,
                  "-", differing_pixels(pa, pb) if rel.endswith(".png") else "")
            continue
        bad += 1
        if rel.endswith(".png"):
            print("differs:", rel, "-", differing_pixels(pa, pb))
        else:
            with tempfile.NamedTemporaryFile("w") as fa, tempfile.NamedTemporaryFile("w") as fb:
                fa.write(da if isinstance(da, str) else da.decode("utf-8", "replace")); fa.flush()
                fb.write(db if isinstance(db, str) else db.decode("utf-8", "replace")); fb.flush()
                diff = subprocess.run(["diff", "-u", fa.name, fb.name], capture_output=True,
                                      text=True).stdout
            print("differs:", rel)
            print("".join(diff.splitlines(keepends=True)[:20]))
    print("%d of %d files differ" % (bad, len(a | b)))
    return 1 if bad else 0


def main():
    if len(sys.argv) >= 4 and sys.argv[1] == "compare":
        noise = sys.argv[5] if len(sys.argv) >= 6 and sys.argv[4] == "--noise" else None
        sys.exit(compare(sys.argv[2], sys.argv[3], noise))
    if len(sys.argv) < 4 or sys.argv[1] != "record":
        sys.exit(__doc__)
    build, out = os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3])
    only, skip, pick, rest = {"cli", "scenes", "screens"}, set(), set(), sys.argv[4:]
    while rest:
        opt, val, rest = rest[0], rest[1], rest[2:]
        if opt == "--only":
            only = set(val.split(","))
        elif opt == "--skip-scene":
            skip.add(val)
        elif opt == "--scene":
            pick.add(val)
    os.makedirs(out, exist_ok=True)
    if "cli" in only:
        record_cli(build, out)
    if "screens" in only:
        record_screens(build, out)
    if "scenes" in only:
        record_scenes(build, out, skip, pick)


if __name__ == "__main__":
    main()
