#!/usr/bin/env bash
# Sets up NormLab like run.sh, then runs every test through ctest: core, CLI, and GUI under Xvfb;
# then the web build's tests in headless chromium (tests/web/run.sh). Exits non-zero on any failure.
#   ./scripts/test.sh              Release build in build/
#   ./scripts/test.sh --sanitize   the same tests, built with ASan + UBSan in build-sanitize/
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/setup.sh
case "${1:-}" in
  "")
    normlab_setup
    ctest --test-dir build --output-on-failure -j "$(nproc 2>/dev/null || echo 2)"
    # The web build in headless chromium (docs/ARCHITECTURE.md, "The web build"); NORMLAB_WEB_TESTS=0 skips it.
    if [ "${NORMLAB_WEB_TESTS:-1}" != 0 ]; then
      tests/web/run.sh
    fi
    ;;
  --sanitize)
    normlab_install_packages
    cmake -S . -B build-sanitize -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNORMLAB_SANITIZE=ON
    cmake --build build-sanitize -j "$(nproc 2>/dev/null || echo 2)"
    # Tests labelled sized, release_only or lang_matrix run in the Release run above only: the
    # sanitizers check memory, and those repeat a code path at another size, language or scene
    # (tests/CMakeLists.txt says which is which).
    # Leaks are reported too, except in the GUI tests (tests/gui/CMakeLists.txt, "Scheduling"):
    # one run, so that the GUI tests, which hold a lock and run one at a time, run beside the rest.
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
      ctest --test-dir build-sanitize --output-on-failure -j "$(nproc 2>/dev/null || echo 2)" \
        -LE '^(sized|release_only|lang_matrix)$'
    ;;
  *)
    echo "usage: $0 [--sanitize]" >&2
    exit 2
    ;;
esac
