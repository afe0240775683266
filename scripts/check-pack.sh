#!/usr/bin/env bash
# Packs weblate-mirror as npm would publish it, installs the tarball into an empty folder
# outside the checkout (Node looks for packages in every parent folder, so one inside would
# use the checkout's node_modules unnoticed), and runs the installed CLI there: the demo, then
# `sync` against the installed `simulate`. Needs the npm registry for the dependencies.
set -euo pipefail
cd "$(dirname "$0")/.."
# Set when this runs under `npm run`: it would point the installs below at the checkout.
unset npm_config_local_prefix

work="$(mktemp -d -t weblate-mirror-pack-XXXXXX)"
step="" simulator=""
cleanup() {
  # timeout and setsid each lead a process group: this ends everything they started.
  for group in "${step}" "${simulator}"; do
    if [ -n "${group}" ]; then kill -TERM -- "-${group}" 2>/dev/null || true; fi
  done
  rm -rf "${work}"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
fail() {
  echo "check-pack: $*" >&2
  exit 1
}
# Runs a step for at most $1 seconds. In the background and waited for, so that a signal
# runs the traps at once rather than after the step.
bounded() {
  timeout --kill-after=10 "$@" &
  step=$!
  wait "${step}"
}

dir="${work}"
while [ "${dir}" != / ]; do
  dir="$(dirname "${dir}")"
  [ ! -e "${dir%/}/node_modules" ] || fail "${dir%/}/node_modules would be used"
done
[ "$(node -p "require('./package.json').private")" = true ] ||
  fail 'package.json must keep "private": true, so that nothing is published by accident'

# npm pack runs `prepare`, the build, first.
mkdir "${work}/pack"
bounded 300 npm pack --pack-destination "${work}/pack" >"${work}/pack.log" 2>&1 ||
  { cat "${work}/pack.log"; fail "npm pack failed"; }
tarball="$(ls "${work}"/pack/*.tgz)"
tar -tzf "${tarball}" | sort >"${work}/contents"
for path in bin/weblate-mirror.js dist/src/cli/bundle.js dist/src/cli/demo-server.js \
  LICENSE README.md .env.example package.json; do
  grep -qx "package/${path}" "${work}/contents" || fail "the tarball lacks ${path}"
done
if grep -E '\.ts$|\.map$|^package/(src|test|bench|scripts|jobs|migrations|docs|deploy)/' \
  "${work}/contents"; then
  fail "the tarball holds sources, tests or source maps (above)"
fi

app="${work}/app"
mkdir "${app}"
cd "${app}"
npm init -y >/dev/null
bounded 600 npm install --no-audit --no-fund "${tarball}"
[ ! -e node_modules/tsx ] || fail "installing the package brought tsx"
# One PGlite, the release whose empty cluster the package stores (else: initdb, 2x the memory).
pglite="$(find node_modules -path '*/@electric-sql/pglite/package.json')"
[ "$(wc -l <<<"${pglite}")" = 1 ] || fail "PGlite installed more than once: ${pglite}"
pglite="$(node -p "require('./${pglite}').version")"
[ -e "node_modules/weblate-mirror/assets/pglite/cluster-${pglite}.tar.br" ] ||
  fail "the package stores no empty cluster for the PGlite it installs (${pglite})"

echo "== npx weblate-mirror demo"
bounded 300 npx weblate-mirror demo --data-dir "${work}/demo" >"${work}/demo.log" ||
  { cat "${work}/demo.log"; fail "demo failed"; }
grep -q '^Report written to' "${work}/demo.log" ||
  { cat "${work}/demo.log"; fail "the demo wrote no report"; }

echo "== npx weblate-mirror simulate, then sync"
# A session of its own, so that cleanup ends npx and the server it started together.
setsid npx weblate-mirror simulate --port 0 --projects 1 --components 2 --languages 2 \
  --units 200 --changes 200 >"${work}/simulate.log" &
simulator=$!
url=""
for _ in $(seq 1 600); do
  url="$(head -n 1 "${work}/simulate.log")"
  [ -z "${url}" ] || break
  kill -0 "${simulator}" 2>/dev/null || fail "simulate exited before it printed its URL"
  sleep 0.1
done
[ -n "${url}" ] || fail "simulate printed no URL within 60 s"
export WEBLATE_URL="${url}" WEBLATE_MIRROR_DATA_DIR="${work}/sync"
bounded 300 npx weblate-mirror sync
bounded 60 npx weblate-mirror query --json 'select count(*)::int as n from weblate.units' \
  >"${work}/units.json"
grep -q '"n":[1-9]' "${work}/units.json" || fail "no units mirrored: $(cat "${work}/units.json")"

echo "check-pack: ok; $(cat "${work}/units.json") units mirrored;" \
  "tarball $(du -k "${tarball}" | cut -f1) kB, $(wc -l <"${work}/contents") files;" \
  "installed: node_modules $(du -sk node_modules | cut -f1) kB," \
  "of which weblate-mirror $(du -sk node_modules/weblate-mirror | cut -f1) kB"
