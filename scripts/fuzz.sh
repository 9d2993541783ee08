#!/usr/bin/env bash
# Fuzzes NormLab's parsers of outside input with libFuzzer (clang, ASan + UBSan): the eval
# request, the scene loader, the CSV loader, the worked example's step parser, the lecture
# loader and the translation catalog loader (fuzz/, docs/RELIABILITY.md "Fuzzing").
#   ./scripts/fuzz.sh [SECONDS] [TARGET...]   SECONDS per target (default 180); TARGETs from
#                                             eval, scene, csv, step, lecture, po (default: all, in turn)
# Builds build-fuzz/ (clang++, NORMLAB_FUZZ=ON), then runs each target from its seed corpus
# (fuzz/corpus/<target>/) and regressions (fuzz/regressions/<target>/). New corpus entries and
# logs go to a scratch folder ($NORMLAB_FUZZ_WORK, default a new /tmp/normlab-fuzz.*), never
# into the repository. An input that crashes, leaks, times out or breaks an invariant is copied
# to fuzz/regressions/<target>/ (rename it to say what it found; fuzz.replay_<target> replays it
# in ctest). Prints executions, exec/s and corpus size per target; exits 1 if any target found one.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/setup.sh

seconds=${1:-180}
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(eval scene csv step lecture po)
case "$seconds" in
  ''|*[!0-9]*) echo "usage: $0 [SECONDS] [eval|scene|csv|step|lecture|po ...]" >&2; exit 2 ;;
esac

NORMLAB_PACKAGES+=("${NORMLAB_FUZZ_PACKAGES[@]}")
normlab_install_packages
jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B build-fuzz -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DNORMLAB_FUZZ=ON -DNORMLAB_BUILD_APP=OFF -DBUILD_TESTING=OFF
cmake --build build-fuzz -j "$jobs" --target "${targets[@]/#/fuzz_}"

work=${NORMLAB_FUZZ_WORK:-$(mktemp -d /tmp/normlab-fuzz.XXXXXX)}
echo "fuzz: scratch folder $work"
found=0
summary=()
for t in "${targets[@]}"; do
  case "$t" in
    eval) max_len=4096 dict=fuzz/json.dict ;;
    scene) max_len=16384 dict=fuzz/json.dict ;;
    csv) max_len=4096 dict=fuzz/csv.dict ;;
    step) max_len=4096 dict=fuzz/step.dict ;;
    lecture) max_len=8192 dict=fuzz/json.dict ;;
    po) max_len=8192 dict=fuzz/po.dict ;;
    *) echo "unknown target \"$t\" (expected eval, scene, csv, step, lecture or po)" >&2; exit 2 ;;
  esac
  mkdir -p "$work/$t/corpus" "$work/$t/artifacts"
  echo "fuzz: $t for ${seconds} s (log: $work/$t.log)"
  status=0
  # -timeout: an input that takes 10 s is a finding; libFuzzer writes new inputs into the first
  # folder only, so the seed corpus and regressions are read, never changed.
  ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1} \
    "build-fuzz/bin/fuzz_$t" -max_total_time="$seconds" -max_len="$max_len" -dict="$dict" -timeout=10 \
      -print_final_stats=1 -artifact_prefix="$work/$t/artifacts/" \
      "$work/$t/corpus" "fuzz/corpus/$t" "fuzz/regressions/$t" > "$work/$t.log" 2>&1 || status=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$t.log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$work/$t.log" | tail -1)
  # (a log without these lines, e.g. a run refused at start, must not end the script: || true)
  corpus=$(grep -o 'corp: [0-9]*/[0-9]*[a-zA-Z]*' "$work/$t.log" | tail -1 | cut -d' ' -f2 || true)
  cov=$(grep -o 'cov: [0-9]*' "$work/$t.log" | tail -1 | cut -d' ' -f2 || true)
  line="$t: ${seconds} s, ${execs:-?} executions, ${rate:-?} exec/s, corpus ${corpus:-?} (entries/bytes), cov ${cov:-?}"
  shopt -s nullglob
  artifacts=("$work/$t/artifacts"/*)
  shopt -u nullglob
  if [ "$status" -ne 0 ] || [ ${#artifacts[@]} -gt 0 ]; then
    found=1
    line+=", FINDING (exit $status)"
    for a in "${artifacts[@]}"; do
      cp "$a" "fuzz/regressions/$t/"
      line+=$'\n'"  kept fuzz/regressions/$t/$(basename "$a")"
    done
    grep -E -m 5 'ERROR: |runtime error|terminate called|what\(\)' "$work/$t.log" | sed 's/^/  /' || true
  fi
  echo "$line"
  summary+=("$line")
done
echo "fuzz: summary"
printf '  %s\n' "${summary[@]}"
exit "$found"
