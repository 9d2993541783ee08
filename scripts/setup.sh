# Sourced by run.sh and test.sh: installs the Debian 12 packages NormLab needs (only those
# missing), then configures and builds Release into build/. Not meant to be run on its own.
# Usage: normlab_setup [extra cmake args...]

NORMLAB_PACKAGES=(
  build-essential cmake pkg-config
  libeigen3-dev nlohmann-json3-dev
  libimgui-dev libstb-dev libglfw3-dev libepoxy-dev
  libgtest-dev libbenchmark-dev
  zlib1g-dev
  xvfb xauth libgl1-mesa-dri fonts-dejavu-core
  fonts-noto-cjk  # Korean and Chinese text: Noto Sans CJK merged with DejaVu (app/render/font_atlas.hpp)
  libegl1 libegl-mesa0   # normlab-cli export: PNG without a window (EGL's surfaceless platform)
  libxml2-utils   # xmllint: the CLI tests check that exported SVGs are well-formed
  xdotool         # gui.taps: synthetic 10 ms key taps
)
# scripts/web.sh only: Debian's emscripten (3.1.6) and the tools that unpack Debian's source
# packages of Dear ImGui and zlib (apt-get source, pinned to libimgui-dev's and zlib1g-dev's
# versions), the header-only libraries and fonts the page is built with, ccache for em++; Noto
# Sans CJK and fontTools, which cut the page's Korean and Chinese font (scripts/cjk_subset.py).
NORMLAB_WEB_PACKAGES=(emscripten dpkg-dev xz-utils bzip2 ccache python3
  libimgui-dev zlib1g-dev libeigen3-dev nlohmann-json3-dev libstb-dev fonts-dejavu-core
  fonts-noto-cjk python3-fonttools)
# tests/web/run.sh only: Debian's chromium (headless, WebGL2 through SwiftShader) driven by npm's
# puppeteer-core.
NORMLAB_WEB_TEST_PACKAGES=(chromium nodejs)   # and npm, where node has none of its own (tests/web/run.sh)
# scripts/fuzz.sh only: clang with libFuzzer and its sanitizer runtimes, llvm-symbolizer for traces.
NORMLAB_FUZZ_PACKAGES=(clang libclang-rt-14-dev llvm-14)

normlab_install_packages() {
  local missing=()
  local pkg
  for pkg in "${NORMLAB_PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
      missing+=("$pkg")
    fi
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "normlab: installing missing Debian packages: ${missing[*]}"
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
      echo "normlab: need root or sudo to install: ${missing[*]}" >&2; return 1
    fi
  fi
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq || return 1
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" || return 1
}

normlab_build() {
  local jobs
  jobs=$(nproc 2>/dev/null || echo 2)
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "$@" || return 1
  cmake --build build -j "$jobs" || return 1
}

normlab_setup() {
  normlab_install_packages || { echo "normlab: package installation failed" >&2; return 1; }
  normlab_build "$@" || { echo "normlab: build failed" >&2; return 1; }
}
