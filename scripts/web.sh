#!/usr/bin/env bash
# NormLab in the browser (docs/ARCHITECTURE.md, "The web build"): installs what is missing (Debian
# 12: emscripten, Dear ImGui's and zlib's source packages), builds the page into build-web/ with
# Debian's emscripten, and serves it on 127.0.0.1 with the cross-origin isolation headers that
# WebAssembly threads need.
#   ./scripts/web.sh              build, then serve on http://127.0.0.1:8080/
#   ./scripts/web.sh --build      build only
#   ./scripts/web.sh --port N     serve on port N
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/setup.sh

build_only=0
port=8080
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build_only=1 ;;
    --port)
      [ $# -ge 2 ] && [[ "$2" =~ ^[0-9]+$ ]] && [ "$2" -ge 1 ] && [ "$2" -le 65535 ] ||
        { echo "web.sh: --port needs a port number from 1 to 65535" >&2; exit 2; }
      port=$2; shift ;;
    -h|--help) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "web.sh: unknown argument '$1' (--build, --port N)" >&2; exit 2 ;;
  esac
  shift
done

NORMLAB_PACKAGES=("${NORMLAB_WEB_PACKAGES[@]}")
normlab_install_packages || { echo "web.sh: package installation failed" >&2; exit 1; }

# Debian's emscripten runs its JS tools with node; a node that is not Debian's finds Debian's
# acorn (emscripten's optimizer needs it) only through NODE_PATH.
export NODE_PATH="${NODE_PATH:+$NODE_PATH:}/usr/share/nodejs"

# Dear ImGui and zlib: Debian's source packages, the versions of the installed binaries.
. scripts/web_sources.sh
normlab_web_sources build-web/deps || exit 1

launcher=()
command -v ccache >/dev/null 2>&1 && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
jobs=$(nproc 2>/dev/null || echo 2)
emcmake cmake -S . -B build-web -DCMAKE_BUILD_TYPE=Release -DNORMLAB_WEB=ON "${launcher[@]}" >/dev/null
cmake --build build-web -j "$jobs"
echo "web.sh: built build-web/index.html"
[ "$build_only" -eq 1 ] && exit 0

echo "web.sh: serving http://127.0.0.1:$port/ (Ctrl+C stops)"
exec python3 tests/web/serve.py --dir build-web --port "$port"
