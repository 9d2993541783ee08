#!/usr/bin/env bash
# The web build's tests (docs/ARCHITECTURE.md, "The web build"): builds build-web/ (scripts/web.sh
# --build), serves it on a free local port, and runs check.mjs in Debian's chromium (headless,
# WebGL2 through SwiftShader) against it and the desktop build's normlab-cli (build/, which
# scripts/test.sh has built). Installs chromium and puppeteer-core (npm) when missing.
#   tests/web/run.sh [--bench] [--out DIR]     screenshots and bench.json land in DIR
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/setup.sh

out=build-web/test-out
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --bench) extra+=(--bench) ;;
    --out) out=$2; shift ;;
    *) echo "tests/web/run.sh: unknown argument '$1' (--bench, --out DIR)" >&2; exit 2 ;;
  esac
  shift
done

NORMLAB_PACKAGES=("${NORMLAB_WEB_TEST_PACKAGES[@]}")
command -v npm >/dev/null 2>&1 || NORMLAB_PACKAGES+=(npm)   # a node that is not Debian's brings its own npm
normlab_install_packages || { echo "tests/web: package installation failed" >&2; exit 1; }

./scripts/web.sh --build
for tool in build/bin/normlab-cli build/bin/normlab_check_screenshot build/bin/normlab_check_slide; do
  [ -x "$tool" ] || { echo "tests/web: $tool is missing: build the desktop first (./scripts/test.sh)" >&2; exit 1; }
done

# puppeteer-core only (it downloads no browser): the version in tests/web/package-lock.json.
if [ ! -d tests/web/node_modules/puppeteer-core ]; then
  (cd tests/web && npm ci --no-audit --no-fund --loglevel=error)
fi

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 tests/web/serve.py --dir build-web --port "$port" --quiet &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 50); do
  python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/index.html')" 2>/dev/null && break
  sleep 0.1
done

mkdir -p "$out"
node tests/web/check.mjs --url "http://127.0.0.1:$port/" --cli build/bin/normlab-cli \
  --checker build/bin/normlab_check_screenshot \
  --slide-checker build/bin/normlab_check_slide --out "$out" "${extra[@]}"
