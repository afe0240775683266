#!/usr/bin/env bash
# Installs Weblate 5.14.3 for the real-Weblate test tier (npm run test:weblate) into a virtualenv
# in a cache folder outside the checkout, so that every clone on this machine shares it:
#   ${XDG_CACHE_HOME:-$HOME/.cache}/weblate-mirror/weblate-5.14.3-<hash of constraints.txt and this script>
# Idempotent: a complete install is checked in about a second and left alone. Installs the Debian
# packages Weblate needs to build and run (as root, with apt-get) when they are missing.
# Prints the virtualenv's path as its last line of stdout; everything else goes to stderr.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
log() { printf '[weblate setup] %s\n' "$*" >&2; }

WEBLATE_VERSION=5.14.3
PIP_VERSION=26.3
# Build: pycairo, PyGObject (below 3.51: bookworm's GLib is 2.74), borgbackup; run: Pango and
# librsvg through GObject introspection (widgets), git for the local VCS, pg_trgm and btree_gin.
DEBIAN_PACKAGES=(
  build-essential pkg-config git gettext
  libcairo2-dev libgirepository1.0-dev gir1.2-pango-1.0 gir1.2-rsvg-2.0
  libacl1-dev liblz4-dev libzstd-dev libxxhash-dev libssl-dev libpq-dev
  libxml2-dev libxslt1-dev libffi-dev libyaml-dev postgresql-contrib
)

key="$(printf "%s\n" "${DEBIAN_PACKAGES[*]}" | cat "$here/constraints.txt" - | sha256sum | cut -c1-12)"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/weblate-mirror"
venv="$cache/weblate-${WEBLATE_VERSION}-${key}"
mkdir -p "$cache"

python="${WEBLATE_PYTHON:-}"
if [ -z "$python" ]; then
  for candidate in python3.11 python3 /usr/bin/python3.11; do
    if command -v "$candidate" >/dev/null 2>&1 &&
      "$candidate" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))' 2>/dev/null; then
      python="$candidate"
      break
    fi
  done
fi
if [ -z "$python" ]; then
  log "no Python 3.11 found (Weblate ${WEBLATE_VERSION} needs Python 3.11; set WEBLATE_PYTHON)"
  exit 1
fi

install_debian_packages() {
  local missing=()
  for package in "${DEBIAN_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' ||
      missing+=("$package")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  log "installing Debian packages: ${missing[*]}"
  if [ "$(id -u)" != 0 ]; then
    log "not root: install them first (apt-get install -y ${missing[*]})"
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
}

is_complete() {
  [ -f "$venv/.complete" ] &&
    "$venv/bin/python" - <<'EOF' 2>/dev/null
import gi
gi.require_version("Rsvg", "2.0")
gi.require_version("PangoCairo", "1.0")
import gunicorn, psycopg
from importlib.metadata import version
assert version("weblate") == "5.14.3", version("weblate")
EOF
}

install_debian_packages

# One installer at a time per cache (two clones may run the tier at once).
exec 9>"$cache/.lock"
flock 9

if is_complete; then
  log "Weblate ${WEBLATE_VERSION} ready in $venv"
  echo "$venv"
  exit 0
fi

log "installing Weblate ${WEBLATE_VERSION} into $venv (a few minutes, once per machine)"
rm -rf "$venv"
"$python" -m venv "$venv"
# pip warns about every package missing from a machine's local extra indexes: noise, not news.
pip_install() {
  local status=0
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "$@" >"$cache/pip.log" 2>&1 ||
    status=$?
  grep -v "^WARNING: Location 'file://.*' is ignored" "$cache/pip.log" >&2 || true
  return "$status"
}
pip_install "pip==${PIP_VERSION}"
pip_install -c "$here/constraints.txt" "weblate[postgres]==${WEBLATE_VERSION}" gunicorn
touch "$venv/.complete"
if ! is_complete; then
  rm -f "$venv/.complete"
  log "the install finished but Weblate does not import; see the output above"
  exit 1
fi
# Older installs of other constraint sets are dead weight.
find "$cache" -mindepth 1 -maxdepth 1 -type d -name 'weblate-*' ! -path "$venv" -exec rm -rf {} +
log "Weblate ${WEBLATE_VERSION} installed in $venv"
echo "$venv"
