#!/usr/bin/env bash
# Export benchmark (docs/BENCHMARKS.md, "Exporting a scene's figures"): for every shipped scene,
# the wall time of one `normlab-cli export --all` (each lab computed once) against the sum of the
# one-figure commands (`--plot NAME --out …`, each computing its lab again), same formats.
#   scripts/bench_export.sh [--small] [NORMLAB_CLI]   (default build/bin/normlab-cli)
# --small: each scene with its runs shortened as in CI (tests/cli/export_all.cmake: depth 2 layers,
# 4 steps, a 2-point sweep of 5 steps; training 30 steps), for a busy machine; the ratio then
# understates what --all saves at the shipped lengths, where training dominates.
# Formats: SVG and CSV, which plots and tables both have (PNG adds the same rendering to both sides).
# Prints one line per scene and a total; the machine's load (uptime) before and after.
set -eu
small=0
if [ "${1:-}" = --small ]; then small=1; shift; fi
cli=${1:-build/bin/normlab-cli}
formats=svg,csv
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
now() { date +%s.%N; }
echo "load before: $(uptime)"
total_all=0 total_one=0
for shipped in assets/scenes/*.json; do
    name=$(basename "$shipped" .json)
    scene=$shipped
    if [ $small = 1 ]; then
        scene=$work/$name.json
        python3 - "$shipped" "$scene" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
labs = d.setdefault("labs", {})
labs.setdefault("depth", {}).update(steps=4, measure_steps=2, sweep_points=2, sweep_steps=5, layers=2)
labs.setdefault("training", {})["steps"] = 30
json.dump(d, open(sys.argv[2], "w"))
PY
    fi
    t0=$(now)
    "$cli" export --scene "$scene" --all --out-dir "$work/$name-all" --format "$formats" >/dev/null
    t1=$(now)
    figures=0
    mkdir -p "$work/$name-one"
    for figure in $("$cli" export --scene "$scene" --list); do
        for f in svg csv; do
            "$cli" export --scene "$scene" --plot "$figure" --out "$work/$name-one/$figure.$f" >/dev/null
            figures=$((figures + 1))
        done
    done
    t2=$(now)
    all=$(echo "$t1 - $t0" | bc) one=$(echo "$t2 - $t1" | bc)
    total_all=$(echo "$total_all + $all" | bc) total_one=$(echo "$total_one + $one" | bc)
    printf '%-28s --all %8.2f s   %3d one-figure commands %8.2f s   ratio %6.1f×\n' "$name" "$all" "$figures" "$one" \
        "$(echo "$one / $all" | bc -l)"
done
printf '%-28s --all %8.2f s   one-figure commands %8.2f s   ratio %6.1f×\n' "all scenes" "$total_all" "$total_one" \
    "$(echo "$total_one / $total_all" | bc -l)"
echo "load after: $(uptime)"
