#!/usr/bin/env python3
"""cli.depth.help_numbers: every measured number in `normlab-cli depth --help` is recomputed.

    check_depth_help.py NORMLAB_CLI

Reads the help's "What the papers report, and what this model shows" part, runs the model over
the seeds it names (`depth --seeds … --json`, --precision f32: per seed its first ÷ last ratios
agree with the float64 reference the help quotes to about 1e-6) and checks:
  - the table: each setting's mean ± sd over seeds 1–10 for steps 1, 1–10 and 1–50;
  - seed 1 alone with the defaults, per placement;
  - Post-LN at Xavier over steps 1–10: its mean ± sd, how many of seeds 1–20 are below 1, min–max;
  - the ablation at step 1 (mean ± sd per model);
  - the sentences: Pre-LN's ratio > 1 in every seed and window, its mean larger at Xavier and
    with training, under the lab's "much larger" (2); NormFormer's ratio above Pre-LN's in every seed, window and init; Post-LN at
    Xavier ≥ 1 on average by step 50.
A printed number passes when it is the computed one rounded as printed (half a unit of its last
digit, plus 1e-4 for float32). Prints "ok: …" per check; exits 1 listing every failure.
"""
import json
import re
import statistics
import subprocess
import sys

cli = sys.argv[1]
TOLERANCE = 1e-4   # float32 against the float64 reference, with margin
failures = []


def ok(what):
    print("ok: " + what)


def fail(what):
    failures.append(what)
    print("FAIL: " + what)


def run(*args):
    done = subprocess.run([cli, "depth", *args, "--precision", "f32", "--json"], capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit("normlab-cli depth " + " ".join(args) + f" exited {done.returncode}: {done.stderr}")
    return json.loads(done.stdout)


def ratios(result, steps):
    """Per run, first ÷ last over the window ending at `steps` (1, 10 or 50)."""
    return [next(w["first_last_ratio"] for w in r["window_ratios"] if w["steps"] == steps) for r in result["runs"]]


def agrees(printed, computed):
    """printed is a decimal as the help writes it ("1.12", ".07"): computed rounded to its digits."""
    digits = len(printed.split(".")[1]) if "." in printed else 0
    return abs(float(printed) - computed) <= 0.5 * 10 ** -digits + TOLERANCE


def check_spread(label, printed_mean, printed_sd, values):
    mean, sd = statistics.mean(values), statistics.stdev(values)   # sd: n − 1, as the CLI's spread
    text = f"{label}: printed {printed_mean} ± {printed_sd}, computed {mean:.4f} ± {sd:.4f}"
    (ok if agrees(printed_mean, mean) and agrees(printed_sd, sd) else fail)(text)


def section(help_text):
    start = help_text.find("What the papers report")
    end = help_text.find("Reproduce:", start)
    if start < 0 or end < 0:
        sys.exit("depth --help has no \"What the papers report … Reproduce:\" part")
    return help_text[start:end]


def flat(text):
    """The help's lines joined with single spaces (a sentence may wrap anywhere)."""
    return re.sub(r"\s+", " ", text)


def find(pattern, text, what):
    m = re.search(pattern, text)
    if not m:
        sys.exit(f"depth --help: no {what} (/{pattern}/)")
    return m


help_text = subprocess.run([cli, "depth", "--help"], capture_output=True, text=True, check=True).stdout
part = section(help_text)
flat_part = flat(part)

placements = {"Post-LN": "postln", "Pre-LN": "preln", "NormFormer": "normformer"}
NUM = r"(\d*\.\d+)"
SPREAD = NUM + r" ± " + NUM

# The runs: every placement and init over seeds 1–10 (Post-LN at Xavier over 1–20).
results = {}
for name, placement in placements.items():
    for init in ("uniform", "xavier"):
        seeds = "1-20" if (placement, init) == ("postln", "xavier") else "1-10"
        results[name, init] = run("--placement", placement, "--init", init, "--seeds", seeds)
ten = {key: {steps: ratios(r, steps)[:10] for steps in (1, 10, 50)} for key, r in results.items()}

# The table: six rows, three windows each.
rows = 0
for m in re.finditer(r"^  (Post-LN|Pre-LN|NormFormer), (uniform|Xavier) +" + r" +".join([SPREAD] * 3) + r" *$",
                     part, re.M):
    rows += 1
    name, init = m.group(1), m.group(2).lower()
    for i, steps in enumerate((1, 10, 50)):
        window = "step 1" if steps == 1 else f"steps 1–{steps}"
        check_spread(f"{name}, {init}, {window}", m.group(2 + 2 * i + 1), m.group(2 + 2 * i + 2), ten[name, init][steps])
if rows != 6:
    fail(f"the table has {rows} rows, expected 6 (3 placements × 2 inits)")

# "seed 1 alone with the defaults: Post-LN 1.42, Pre-LN 1.72, NormFormer 3.01"
m = find(r"seed 1 alone with the defaults: Post-LN " + NUM + r", Pre-LN " + NUM + r", NormFormer " + NUM,
         flat_part, "seed 1 line")
for i, name in enumerate(placements):
    computed = ten[name, "uniform"][50][0]
    (ok if agrees(m.group(i + 1), computed) else fail)(
        f"{name}, seed 1, steps 1–50: printed {m.group(i + 1)}, computed {computed:.4f}")

# Post-LN at Xavier, steps 1–10: "(0.76 ± .11; below 1 in 19 of 20 seeds, 0.58–1.02)"
m = find(r"\(" + SPREAD + r"; below 1 in (\d+) of (\d+) seeds, " + NUM + "–" + NUM + r"\)", flat_part,
         "Post-LN at Xavier sentence")
check_spread("Post-LN, xavier, steps 1–10 (sentence)", m.group(1), m.group(2), ten["Post-LN", "xavier"][10])
twenty = ratios(results["Post-LN", "xavier"], 10)
below = sum(v < 1 for v in twenty)
(ok if (int(m.group(3)), int(m.group(4))) == (below, len(twenty)) else fail)(
    f"Post-LN, xavier, steps 1–10: printed below 1 in {m.group(3)} of {m.group(4)}, computed {below} of {len(twenty)}")
(ok if agrees(m.group(5), min(twenty)) and agrees(m.group(6), max(twenty)) else fail)(
    f"Post-LN, xavier, steps 1–10: printed {m.group(5)}–{m.group(6)}, computed {min(twenty):.4f}–{max(twenty):.4f}")

# The ablation: "Pre-LN 1.12 ± .07, + FFN-activation norm 1.42 ± .05, + attention-output norm
# 1.78 ± .16, NormFormer 1.78 ± .13 (step 1)", the models in normformer_ablation()'s order.
m = find(r"raising it: Pre-LN " + SPREAD + r", \+ FFN-activation norm " + SPREAD + r", \+ attention-output norm "
         + SPREAD + r", NormFormer " + SPREAD + r" \(step 1\)", flat_part, "ablation sentence")
ablation = run("--ablation", "--steps", "1", "--seeds", "1-10")["ablation"]
if len(ablation) != 4:
    fail(f"the ablation has {len(ablation)} models, expected 4")
for i, model in enumerate(ablation[:4]):
    check_spread(f"ablation, {model['label']}, step 1", m.group(2 * i + 1), m.group(2 * i + 2), ratios(model, 1))

# The sentences.
if "first ÷ last > 1 in every seed" in flat_part:
    lowest = min(v for init in ("uniform", "xavier") for s in (1, 10, 50) for v in ten["Pre-LN", init][s])
    (ok if lowest > 1 else fail)(f"Pre-LN: first ÷ last > 1 in every seed and window (lowest {lowest:.4f})")
if "growing with Xavier init and with training" in flat_part:
    mean = {(init, s): statistics.mean(ten["Pre-LN", init][s]) for init in ("uniform", "xavier") for s in (1, 10, 50)}
    grows = all(mean["xavier", s] > mean["uniform", s] for s in (1, 10, 50)) and \
        all(mean[init, 50] > mean[init, 1] for init in ("uniform", "xavier"))
    (ok if grows else fail)("Pre-LN: the mean is larger at Xavier than uniform in every window, and over "
                            "steps 1–50 than at step 1 for both inits")
if "(≥ 2, the lab's threshold" in flat_part:
    highest = max(statistics.mean(ten["Pre-LN", init][s]) for init in ("uniform", "xavier") for s in (1, 10, 50))
    (ok if highest < 2 else fail)(f"Pre-LN: no mean reaches 2 (highest {highest:.4f})")
if "NormFormer's ratio is larger than Pre-LN's in every seed" in flat_part:
    margin = min(n - p for init in ("uniform", "xavier") for s in (1, 10, 50)
                 for n, p in zip(ten["NormFormer", init][s], ten["Pre-LN", init][s]))
    (ok if margin > 0 else fail)(f"NormFormer − Pre-LN in every seed, window and init: smallest {margin:.4f}")
if "gone by step 50" in flat_part:
    mean = statistics.mean(ten["Post-LN", "xavier"][50])
    (ok if mean >= 1 else fail)(f"Post-LN, xavier, steps 1–50: mean {mean:.4f} ≥ 1")

if failures:
    print(f"\n{len(failures)} number(s) in depth --help disagree with the model:\n  " + "\n  ".join(failures))
    sys.exit(1)
