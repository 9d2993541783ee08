#!/usr/bin/env bash
# Sets up NormLab on a fresh Debian 12 machine (packages, Release build into build/) and starts it.
# Extra arguments go to the app, e.g. ./scripts/run.sh --scene assets/scenes/seed_example.json
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/setup.sh
normlab_setup
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
  echo "normlab: no display found; to run without one, use: xvfb-run ./scripts/run.sh" >&2
  exit 1
fi
exec build/bin/normlab "$@"
