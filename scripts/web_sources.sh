# Sourced by scripts/web.sh: Debian's source packages of Dear ImGui and zlib (the page compiles them;
# Debian ships their libraries compiled only). docs/ARCHITECTURE.md, "The web build".
#
# apt-get source needs a deb-src entry. Where the system has none, one is written that mirrors the
# system's Debian entries (same URIs, suites, components, Signed-By), in both of apt's formats:
# deb822 stanzas (sources.list.d/*.sources, Debian 12's debian.sources) and one-line entries
# (sources.list, sources.list.d/*.list). Only entries whose URI apt reports as Debian's (origin
# "Debian") are mirrored, so a third-party repository without sources never breaks apt-get update.
# Everything honours APT_CONFIG, so tests/web/deb_src_check.sh runs it on a copy of /etc/apt.
#   normlab_debian_uris                  the URIs of Debian's archives, one per line
#   normlab_deb_src_entries OUT URI...   writes OUT.sources and/or OUT.list (mirrors of the deb
#                                        entries of those URIs; a file with nothing to say is removed)
#   normlab_web_sources DIR              unpacks imgui and zlib into DIR, pinned to the installed
#                                        binaries' source versions; adds the deb-src entry if needed

# The URIs (without a trailing slash) that apt's policy lists with a release of origin Debian.
normlab_debian_uris() {
  apt-cache policy 2>/dev/null | awk '
    /^ *[0-9]+ [a-z+]+:/ { uri = $2; sub(/\/+$/, "", uri); next }
    /^ *release / && uri != "" && /(^|[ ,])o=Debian(,|$)/ { print uri }
    /^ *origin / { uri = "" }' | sort -u
}

# The apt configuration's source files: sources.list, then sources.list.d/*.list and *.sources
# (apt's own name rule), leaving out ours.
normlab_apt_source_files() {
  local list parts
  eval "$(apt-config shell list Dir::Etc::sourcelist/f parts Dir::Etc::sourceparts/d)"
  [ -f "$list" ] && echo "$list"
  [ -d "$parts" ] || return 0
  find "$parts" -maxdepth 1 -type f -regextype posix-extended \
    -regex '.*/[A-Za-z0-9_.-]+\.(list|sources)' ! -name 'normlab-src.*' | LC_ALL=C sort
}

normlab_deb_src_entries() {
  local out=$1; shift
  local files=()
  mapfile -t files < <(normlab_apt_source_files)
  local uris=" $* "
  rm -f "$out.sources.tmp" "$out.list.tmp"
  [ ${#files[@]} -eq 0 ] || awk -v uris="$uris" -v deb822="$out.sources.tmp" -v oneline="$out.list.tmp" '
    function wanted(list,   n, i, u, parts) {
      n = split(list, parts, /[ \t]+/)
      for (i = 1; i <= n; ++i) {
        u = parts[i]; sub(/\/+$/, "", u)
        if (u != "" && index(uris, " " u " ")) return 1
      }
      return 0
    }
    function has_word(list, w) { return (" " list " ") ~ ("[ \t]" w "[ \t]") }
    function field(line,   v) { v = line; sub(/^[^:]*:[ \t]*/, "", v); sub(/[ \t]+$/, "", v); return v }
    function flush_stanza() {
      if (n_lines > 0 && has_word(types, "deb") && !has_word(types, "deb-src") &&
          tolower(enabled) != "no" && wanted(uri_list)) {
        if (stanzas++) print "" > deb822
        for (i = 1; i <= n_lines; ++i)
          print (tolower(lines[i]) ~ /^types:/ ? "Types: deb-src" : lines[i]) > deb822
      }
      n_lines = 0; types = ""; enabled = ""; uri_list = ""
    }
    FNR == 1 { flush_stanza() }
    FILENAME ~ /\.sources$/ {
      if ($0 ~ /^[ \t]*$/) { flush_stanza(); next }
      lines[++n_lines] = $0
      if (tolower($0) ~ /^types:/) types = field($0)
      else if (tolower($0) ~ /^enabled:/) enabled = field($0)
      else if (tolower($0) ~ /^uris:/) uri_list = field($0)
      next
    }
    {   # one-line format: deb [options] URI suite [component...]
      line = $0; sub(/#.*/, "", line); gsub(/[ \t]+/, " ", line); sub(/^ /, "", line); sub(/ $/, "", line)
      if (line ~ /^deb-src /) { have_src[line] = 1; next }
      if (line !~ /^deb /) next
      rest = substr(line, 5)
      if (rest ~ /^\[/) { options = rest; sub(/\].*/, "] ", options); sub(/^[^\]]*\] ?/, "", rest) } else options = ""
      split(rest, words, " ")
      if (wanted(words[1])) candidates[++n_one] = "deb-src " options rest
    }
    END {
      flush_stanza()
      for (k = 1; k <= n_one; ++k)
        if (!(candidates[k] in have_src) && !(candidates[k] in done)) { print candidates[k] > oneline; done[candidates[k]] = 1 }
    }' "${files[@]}"
  local kind
  for kind in sources list; do
    if [ -s "$out.$kind.tmp" ]; then mv "$out.$kind.tmp" "$out.$kind"; else rm -f "$out.$kind.tmp" "$out.$kind"; fi
  done
}

# Runs a command as root (sudo where we are not).
normlab_as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null 2>&1; then sudo "$@"; else
    echo "web.sh: need root or sudo for: $*" >&2; return 1
  fi
}

# Adds the deb-src entry unless apt already knows imgui's sources; removes it again where apt
# cannot read it (a mirror without sources), so the system's apt keeps working.
normlab_ensure_deb_src() {
  apt-cache showsrc imgui 2>/dev/null | grep -q '^Package: imgui' && return 0
  local parts uris tmp
  eval "$(apt-config shell parts Dir::Etc::sourceparts/d)"
  mapfile -t uris < <(normlab_debian_uris)
  [ ${#uris[@]} -gt 0 ] || { echo "web.sh: apt lists no Debian archive to take sources from (apt-cache policy)" >&2; return 1; }
  tmp=$(mktemp -d)
  normlab_deb_src_entries "$tmp/normlab-src" "${uris[@]}"
  if ! ls "$tmp"/normlab-src.* >/dev/null 2>&1; then
    rm -rf "$tmp"
    echo "web.sh: no deb entry of a Debian archive (${uris[*]}) to mirror as deb-src" >&2
    return 1
  fi
  echo "web.sh: adding deb-src entries for ${uris[*]} to ${parts}normlab-src.*"
  normlab_as_root rm -f "${parts}normlab-src.sources" "${parts}normlab-src.list"
  normlab_as_root cp "$tmp"/normlab-src.* "$parts"
  rm -rf "$tmp"
  # An unrelated repository's failure need not stop us: what counts is whether apt now has imgui's sources.
  normlab_as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq || true
  if ! apt-cache showsrc imgui 2>/dev/null | grep -q '^Package: imgui'; then
    normlab_as_root rm -f "${parts}normlab-src.sources" "${parts}normlab-src.list"
    echo "web.sh: apt-get update with the deb-src entries found no imgui sources; removed them again" >&2
    return 1
  fi
}

normlab_web_sources() {
  local deps=$1 pkg bin version
  normlab_ensure_deb_src || return 1
  mkdir -p "$deps"
  for pkg in imgui:libimgui-dev zlib:zlib1g-dev; do
    bin=${pkg#*:}; pkg=${pkg%%:*}
    version=$(dpkg-query -W -f='${source:Version}' "$bin")
    if [ ! -f "$deps/$pkg.version" ] || [ "$(cat "$deps/$pkg.version")" != "$version" ]; then
      rm -rf "$deps/$pkg"-[0-9]* "$deps/$pkg"_*
      (cd "$deps" && apt-get source -qq "$pkg=$version" >/dev/null 2>&1) ||
        { echo "web.sh: apt-get source $pkg=$version failed" >&2; return 1; }
      echo "$version" > "$deps/$pkg.version"
    fi
  done
}
