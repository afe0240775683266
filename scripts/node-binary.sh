#!/usr/bin/env bash
# Prints the folder of a Node.js binary of the major version given (24 by default), installing
# it the first time from the npm registry's node-linux-<arch> package into .cache/node-<major>/
# (ignored by git). For the suite on another Node than the machine's (.ci/run) and for the
# Docker image's stages replayed without Docker (scripts/replay-dockerfile.ts).
#   PATH="$(bash scripts/node-binary.sh 24):$PATH" npm test
set -euo pipefail
major="${1:-24}"
root="$(cd "$(dirname "$0")/.." && pwd)"
arch="$(node -p process.arch)"
folder="${root}/.cache/node-${major}"
bin="${folder}/node_modules/node-linux-${arch}/bin"
if [ ! -x "${bin}/node" ]; then
  mkdir -p "${folder}"
  # Three tries, 10 s and 30 s apart: a registry request failing once (a TLS error seen here
  # through the machines' proxy) should not fail CI.
  for wait in 10 30 0; do
    npm install --prefix "${folder}" --no-save --no-package-lock --no-audit --no-fund \
      --loglevel=error "node-linux-${arch}@${major}" >&2 && break
    [ "${wait}" = 0 ] && exit 1
    echo "scripts/node-binary.sh: npm install failed; again in ${wait} s" >&2
    sleep "${wait}"
  done
fi
actual="$("${bin}/node" -p 'process.versions.node')"
if [ "${actual%%.*}" != "${major}" ]; then
  echo "scripts/node-binary.sh: ${bin}/node is Node ${actual}, not ${major}; remove ${folder}" >&2
  exit 1
fi
echo "${bin}"
