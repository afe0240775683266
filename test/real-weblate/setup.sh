#!/usr/bin/env bash
# Installs a Weblate release for the real-Weblate test tier (npm run test:weblate) into a
# virtualenv in a cache folder outside the checkout, so that every clone on this machine shares it:
#   ${XDG_CACHE_HOME:-$HOME/.cache}/weblate-mirror/weblate-<release>-<hash of what shapes it>
# Usage: setup.sh [release]; the release is one of test/real-weblate/versions (default: its first,
# or WEBLATE_TIER_VERSION). Where the release needs a Python the system lacks, builds it once from
# Debian's source package into the same cache. Idempotent: a complete install is checked in about
# a second and left alone. Installs the Debian packages it needs (as root, with apt-get) when they
# are missing. Prints the virtualenv's path as its last line of stdout; the rest goes to stderr.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
log() { printf '[weblate setup] %s\n' "$*" >&2; }
fail() {
  log "$*"
  exit 1
}

versions="$here/versions"
release="${1:-${WEBLATE_TIER_VERSION:-$(awk '$1 == "weblate" { print $2; exit }' "$versions")}}"
read -r python_wanted constraints < <(
  awk -v r="$release" '$1 == "weblate" && $2 == r { print $4, $6 }' "$versions"
)
[ -n "${constraints:-}" ] ||
  fail "Weblate ${release} is not in test/real-weblate/versions ($(awk '$1 == "weblate" { printf "%s ", $2 }' "$versions"))"
read -r python_package python_source < <(awk '$1 == "python-source" { print $2, $3 }' "$versions")
PIP_VERSION=26.3

# Build: borgbackup (and, before 2026, pycairo and PyGObject; PyGObject below 3.51: bookworm's
# GLib is 2.74); run: git for the local VCS, pg_trgm and btree_gin (and, before 2026, Pango and
# librsvg through GObject introspection).
DEBIAN_PACKAGES=(
  build-essential pkg-config git gettext
  libacl1-dev liblz4-dev libzstd-dev libxxhash-dev libssl-dev libpq-dev
  libxml2-dev libxslt1-dev libffi-dev libyaml-dev postgresql-contrib
)
case "$release" in
  5.*) DEBIAN_PACKAGES+=(libcairo2-dev libgirepository1.0-dev gir1.2-pango-1.0 gir1.2-rsvg-2.0) ;;
esac
# What CPython needs to build with every module the tier's Weblate imports (libmpdec: bundled).
PYTHON_BUILD_PACKAGES=(
  build-essential pkg-config curl xz-utils libssl-dev libffi-dev zlib1g-dev libbz2-dev
  libreadline-dev libsqlite3-dev liblzma-dev uuid-dev libncurses-dev libgdbm-dev
  libgdbm-compat-dev libexpat1-dev
)

cache="${XDG_CACHE_HOME:-$HOME/.cache}/weblate-mirror"
mkdir -p "$cache"

install_debian_packages() {
  local missing=()
  for package in "$@"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' ||
      missing+=("$package")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  log "installing Debian packages: ${missing[*]}"
  [ "$(id -u)" = 0 ] || fail "not root: install them first (apt-get install -y ${missing[*]})"
  export DEBIAN_FRONTEND=noninteractive
  # Other work on the machine may hold dpkg's lock for a while.
  apt-get -o DPkg::Lock::Timeout=600 update -qq >&2
  apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}" >&2
}

# True when $1 runs and its version fits $python_wanted ("3.11": that minor; "3.12+": or newer).
python_fits() {
  local minimum="${python_wanted%+}" exact=1
  [ "$minimum" != "$python_wanted" ] && exact=0
  "$1" - "$minimum" "$exact" <<'EOF' 2>/dev/null
import sys
wanted = tuple(int(part) for part in sys.argv[1].split("."))
have = sys.version_info[:2]
sys.exit(0 if (have == wanted if sys.argv[2] == "1" else have >= wanted) else 1)
EOF
}

find_system_python() {
  local minimum="${python_wanted%+}" candidate
  for candidate in "python${minimum}" python3.14 python3.13 python3.12 python3 \
    "/usr/bin/python${minimum}" /usr/bin/python3; do
    if command -v "$candidate" >/dev/null 2>&1 && python_fits "$candidate"; then
      command -v "$candidate"
      return 0
    fi
  done
  return 1
}

# The host Debian's mirror (the first `deb` source of apt's configuration that is not security).
debian_mirror() {
  {
    grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{ print $2 }'
    grep -hs '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list | awk '{ print $2 }'
  } | grep -v -e security -e nodesource -e google | head -n 1
}

# CPython from Debian's source package (the upstream tarball it carries, checked against the
# package's .dsc), built into the cache once per machine: about 10 minutes on two cores.
build_python() {
  local upstream="${python_source%-*}" prefix="$cache/python-${python_source}"
  local binary="$prefix/bin/${python_package}"
  exec 8>"$cache/.lock-python-${python_source}"
  flock 8
  if [ -f "$prefix/.complete" ] && python_fits "$binary"; then
    echo "$binary"
    return 0
  fi
  install_debian_packages "${PYTHON_BUILD_PACKAGES[@]}"
  local mirror
  mirror="$(debian_mirror)"
  [ -n "$mirror" ] || fail "no Debian mirror in apt's sources to fetch ${python_package} from"
  local pool="${mirror%/}/pool/main/p/${python_package}" work
  work="$(mktemp -d "$cache/python-build.XXXXXX")"
  local dsc="${python_package}_${python_source}.dsc" orig="${python_package}_${upstream}.orig.tar.xz"
  log "building Python ${upstream} from ${pool}/${orig} into ${prefix} (once per machine)"
  curl -fsS --retry 3 -o "$work/$dsc" "$pool/$dsc" || fail "could not fetch $pool/$dsc"
  curl -fsS --retry 3 -o "$work/$orig" "$pool/$orig" || fail "could not fetch $pool/$orig"
  local expected actual
  expected="$(awk -v f="$orig" '/^Checksums-Sha256:/ { on = 1; next } /^[^ ]/ { on = 0 } on && $3 == f { print $1 }' "$work/$dsc")"
  actual="$(sha256sum "$work/$orig" | cut -d' ' -f1)"
  [ -n "$expected" ] && [ "$expected" = "$actual" ] ||
    fail "$orig: SHA-256 ${actual} is not the ${expected:-(missing)} that $dsc lists"
  tar -xJf "$work/$orig" -C "$work"
  rm -rf "$prefix"
  # Each step says its own failure: errexit does not reach into a subshell left of `||`.
  (
    cd "$work/Python-${upstream}" &&
      ./configure --prefix="$prefix" >"$work/configure.log" 2>&1 &&
      make -j"$(nproc)" >"$work/make.log" 2>&1 &&
      make install >"$work/install.log" 2>&1
  ) || {
    tail -n 40 "$(ls -t "$work"/*.log | head -n 1)" >&2
    fail "building Python ${upstream} failed (sources and logs kept in $work)"
  }
  "$binary" -c 'import ssl, sqlite3, ctypes, lzma, bz2, zlib, uuid, _decimal' ||
    fail "Python ${upstream} built without a module Weblate needs (sources kept in $work)"
  touch "$prefix/.complete"
  rm -rf "$work"
  echo "$binary"
}

install_debian_packages "${DEBIAN_PACKAGES[@]}"

# One installer of each release at a time (two clones may run the tier at once).
exec 9>"$cache/.lock-${release}"
flock 9

python="${WEBLATE_PYTHON:-}"
if [ -n "$python" ]; then
  python_fits "$python" || fail "WEBLATE_PYTHON=$python is not Python ${python_wanted}"
elif ! python="$(find_system_python)"; then
  [ "$python_wanted" = "${python_wanted%+}" ] &&
    fail "no Python ${python_wanted} found (Weblate ${release} needs it; set WEBLATE_PYTHON)"
  log "no Python ${python_wanted} on this system"
  python="$(build_python)"
fi

key="$(printf "%s\n" "${DEBIAN_PACKAGES[*]}" "$("$python" -VV)" |
  cat "$here/$constraints" - | sha256sum | cut -c1-12)"
venv="$cache/weblate-${release}-${key}"

is_complete() {
  [ -f "$venv/.complete" ] &&
    "$venv/bin/python" - "$release" <<'EOF' 2>/dev/null
import sys
from importlib.metadata import version
if sys.argv[1].startswith("5."):
    import gi
    gi.require_version("Rsvg", "2.0")
    gi.require_version("PangoCairo", "1.0")
import gunicorn, psycopg
assert version("weblate") == sys.argv[1], version("weblate")
EOF
}

if is_complete; then
  log "Weblate ${release} ready in $venv"
  echo "$venv"
  exit 0
fi

log "installing Weblate ${release} with $("$python" -V) into $venv (a few minutes, once per machine)"
rm -rf "$venv"
"$python" -m venv "$venv"
# pip warns about every package missing from a machine's local extra indexes: noise, not news.
pip_install() {
  local status=0
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "$@" >"$venv.pip.log" 2>&1 ||
    status=$?
  grep -v "^WARNING: Location 'file://.*' is ignored" "$venv.pip.log" >&2 || true
  return "$status"
}
pip_install "pip==${PIP_VERSION}"
pip_install -c "$here/$constraints" "weblate[postgres]==${release}" gunicorn
touch "$venv/.complete"
if ! is_complete; then
  rm -f "$venv/.complete"
  fail "the install finished but Weblate ${release} does not import; see the output above"
fi
# Older installs of this release (other constraints, another Python) are dead weight.
find "$cache" -mindepth 1 -maxdepth 1 -name "weblate-${release}-*" ! -path "$venv" \
  ! -path "$venv.pip.log" -exec rm -rf {} +
log "Weblate ${release} installed in $venv"
echo "$venv"
