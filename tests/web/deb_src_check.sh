#!/usr/bin/env bash
# Checks scripts/web_sources.sh, the deb-src entry scripts/web.sh writes where the system has none
# (docs/ARCHITECTURE.md, "The web build"), on copies of apt's configuration (APT_CONFIG), never on
# the system's own:
#   tests/web/deb_src_check.sh          offline: both source formats, third-party and disabled
#                                       entries, existing deb-src entries, idempotence (ctest web.deb_src)
#   tests/web/deb_src_check.sh --apt    also with the real archive: a copy of /etc/apt without any
#                                       deb-src entry, its own lists and cache, apt-get update and
#                                       apt-get source of imgui and zlib, once per source format
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/web_sources.sh

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
expect_file() {   # FILE EXPECTED-TEXT
  if [ "$2" = "" ]; then
    [ ! -e "$1" ] || fail "$1 should not exist, has: $(cat "$1")"
  elif [ ! -f "$1" ]; then
    fail "$1 missing"
  elif [ "$(cat "$1")" != "$2" ]; then
    fail "$1 differs:"; diff <(echo "$2") "$1" >&2 || true
  fi
}

# An apt configuration rooted at $1 (etc/apt, state, cache below it).
make_root() {
  mkdir -p "$1/etc/apt/sources.list.d" "$1/etc/apt/apt.conf.d" "$1/state/lists/partial" "$1/cache/archives/partial"
  cat > "$1/apt.conf" <<EOF
Dir::Etc "$1/etc/apt";
Dir::State "$1/state";
Dir::Cache "$1/cache";
APT::Sandbox::User "root";
EOF
}

# [SECTION] offline: the entries written for each format -----------------------------------------
root=$tmp/offline
make_root "$root"
export APT_CONFIG=$root/apt.conf
parts=$root/etc/apt/sources.list.d
cat > "$parts/debian.sources" <<'EOF'
Types: deb
# http://snapshot.debian.org/archive/debian/20250520T000000Z
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://deb.debian.org/debian-security/
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm-backports
Components: main
Enabled: no

Types: deb deb-src
URIs: http://deb.debian.org/debian
Suites: experimental
Components: main
EOF
cat > "$parts/nodesource.sources" <<'EOF'
Types: deb
URIs: https://deb.nodesource.com/node_20.x
Suites: nodistro
Components: main
EOF
cat > "$parts/off.sources.disabled" <<'EOF'
Types: deb
URIs: http://deb.debian.org/debian
Suites: trixie
Components: main
EOF
uris=(http://deb.debian.org/debian http://deb.debian.org/debian-security)
normlab_deb_src_entries "$tmp/out" "${uris[@]}"
expected_822='Types: deb-src
# http://snapshot.debian.org/archive/debian/20250520T000000Z
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: http://deb.debian.org/debian-security/
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg'
expect_file "$tmp/out.sources" "$expected_822"
expect_file "$tmp/out.list" ""

# Idempotent: our own file, once installed, is not read again; the same input gives the same file.
cp "$tmp/out.sources" "$parts/normlab-src.sources"
normlab_deb_src_entries "$tmp/out" "${uris[@]}"
expect_file "$tmp/out.sources" "$expected_822"

# One-line format (Debian 11's sources.list), with options, comments and an existing deb-src line.
rm -f "$parts"/*.sources
cat > "$root/etc/apt/sources.list" <<'EOF'
# deb cdrom:[Debian GNU/Linux 12]/ bookworm main
deb http://deb.debian.org/debian bookworm main contrib   # the main archive
deb-src http://deb.debian.org/debian bookworm main contrib
deb  [arch=amd64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg]  http://deb.debian.org/debian-security/ bookworm-security main
deb http://deb.debian.org/debian bookworm-updates main
deb https://packages.cloud.google.com/apt cloud-sdk main
EOF
cat > "$parts/extra.list" <<'EOF'
deb http://deb.debian.org/debian bookworm-updates main
EOF
normlab_deb_src_entries "$tmp/out" "${uris[@]}"
expect_file "$tmp/out.sources" ""
expect_file "$tmp/out.list" 'deb-src [arch=amd64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian-security/ bookworm-security main
deb-src http://deb.debian.org/debian bookworm-updates main'

# Nothing of Debian's to mirror: no file.
normlab_deb_src_entries "$tmp/out" http://example.org/none
expect_file "$tmp/out.list" ""

# The Debian URIs come from apt's policy (origin Debian only).
apt-cache() {
  cat <<'EOF'
Package files:
 100 /var/lib/dpkg/status
     release a=now
 500 https://deb.nodesource.com/node_20.x nodistro/main amd64 Packages
     release o=Node Source,n=nodistro,l=Node Source,c=main,b=amd64
     origin deb.nodesource.com
 500 http://deb.debian.org/debian-security bookworm-security/main amd64 Packages
     release v=12,o=Debian,a=oldstable-security,n=bookworm-security,l=Debian-Security,c=main,b=amd64
     origin deb.debian.org
 500 http://deb.debian.org/debian/ bookworm/main amd64 Packages
     release v=12.15,o=Debian,a=oldstable,n=bookworm,l=Debian,c=main,b=amd64
     origin deb.debian.org
 500 http://mirror.example/debian bookworm/main amd64 Packages
     release o=Debianish,n=bookworm,c=main,b=amd64
     origin mirror.example
Pinned packages:
EOF
}
got=$(normlab_debian_uris | tr '\n' ' ')
[ "$got" = "http://deb.debian.org/debian http://deb.debian.org/debian-security " ] || fail "normlab_debian_uris gave '$got'"
unset -f apt-cache
echo "deb_src_check: offline checks done ($failures failures)"

# [SECTION] --apt: the real archive, from a copy of /etc/apt without deb-src entries --------------
# Runs normlab_web_sources (web.sh's own function) as a fresh machine would: lists of the deb
# entries only (as any installed system has), no deb-src entry, then once more (nothing to do).
real_run() {   # NAME: the copy's sources are set up already
  local root=$1
  export APT_CONFIG=$root/apt.conf
  apt-get update -qq || fail "$root: apt-get update of the deb entries"
  if apt-cache showsrc imgui 2>/dev/null | grep -q '^Package: imgui'; then fail "$root: has imgui's sources before"; fi
  normlab_web_sources "$root/deps" || fail "$root: normlab_web_sources"
  ls "$root/deps"/imgui-*/imgui.cpp "$root/deps"/zlib-*/zlib.h >/dev/null 2>&1 || fail "$root: sources not unpacked"
  ls "$root/etc/apt/sources.list.d/"normlab-src.*
  local before
  before=$(cat "$root/etc/apt/sources.list.d/"normlab-src.* | md5sum)
  normlab_web_sources "$root/deps" || fail "$root: second run"
  [ "$(cat "$root/etc/apt/sources.list.d/"normlab-src.* | md5sum)" = "$before" ] || fail "$root: second run changed the entry"
}
if [ "${1:-}" = --apt ]; then
  for format in deb822 one-line; do
    root=$tmp/$format
    make_root "$root"
    cp -r /etc/apt/trusted.gpg.d "$root/etc/apt/" 2>/dev/null || true
    # The system's Debian entries, without any deb-src (ours or the system's), in this format.
    unset APT_CONFIG
    for f in $(normlab_apt_source_files); do
      case "$f" in
        *.sources) [ "$format" = deb822 ] && awk 'BEGIN { RS = ""; ORS = "\n\n" } !/[Tt]ypes:[^\n]*deb-src/' "$f" > "$root/etc/apt/sources.list.d/$(basename "$f")" ;;
        *) [ "$format" = one-line ] && grep -E '^[[:space:]]*deb[[:space:]]' "$f" >> "$root/etc/apt/sources.list" || true ;;
      esac
    done
    if [ "$format" = one-line ]; then   # the deb822 entries written as one-line ones
      for f in $(normlab_apt_source_files); do
        [[ "$f" == *.sources ]] || continue
        awk 'BEGIN { RS = "" } !/deb-src/ && !/Enabled: no/ {
               t = ""; u = ""; s = ""; c = ""; k = ""
               n = split($0, L, "\n")
               for (i = 1; i <= n; ++i) {
                 if (L[i] ~ /^URIs:/) u = substr(L[i], 7); else if (L[i] ~ /^Suites:/) s = substr(L[i], 9)
                 else if (L[i] ~ /^Components:/) c = substr(L[i], 13); else if (L[i] ~ /^Signed-By:/) k = substr(L[i], 12)
               }
               m = split(s, S, " ")
               for (j = 1; j <= m; ++j) print "deb " (k != "" ? "[signed-by=" k "] " : "") u " " S[j] " " c
             }' "$f" >> "$root/etc/apt/sources.list"
      done
    fi
    echo "deb_src_check: $format sources:"; cat "$root/etc/apt/sources.list" "$root/etc/apt/sources.list.d/"* 2>/dev/null | sed 's/^/  /' || true
    real_run "$root"
  done
  echo "deb_src_check: apt checks done ($failures failures in all)"
fi
[ "$failures" -eq 0 ]
