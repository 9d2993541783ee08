#!/usr/bin/env bash
# Sets up NormLab like run.sh, then runs every test through ctest: core, CLI, and GUI under Xvfb.
# Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/setup.sh
normlab_setup
ctest --test-dir build --output-on-failure -j "$(nproc 2>/dev/null || echo 2)"
