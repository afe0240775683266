#!/usr/bin/env bash
# Installs dbt, DuckDB and pyarrow (dbt/requirements.txt) into a virtual environment of the
# project's own, .cache/python-tools, once per set of pins, and prints its bin folder.
# The dbt package's tests and the export's read-back tests run these tools.
set -euo pipefail
cd "$(dirname "$0")/.."
venv="${PYTHON_TOOLS_DIR:-.cache/python-tools}"
stamp="${venv}/.requirements"
if [ -x "${venv}/bin/dbt" ] && cmp -s dbt/requirements.txt "$stamp"; then
  echo "$(cd "$venv" && pwd)/bin"
  exit 0
fi
# The newest Python that runs (pyenv may offer a shim for a version it has not installed).
python=""
for candidate in python3.13 python3.12 python3.11 python3; do
  if "$candidate" -c 'import venv' >/dev/null 2>&1; then python="$candidate"; break; fi
done
[ -n "$python" ] || { echo "python-tools: no Python 3 with venv found" >&2; exit 1; }
rm -rf "$venv"
"$python" -m venv "$venv" >&2
for attempt in 1 2 3; do
  if "${venv}/bin/pip" install --quiet --disable-pip-version-check -r dbt/requirements.txt >&2; then
    cp dbt/requirements.txt "$stamp"
    echo "$(cd "$venv" && pwd)/bin"
    exit 0
  fi
  echo "python-tools: pip install failed (attempt ${attempt} of 3)" >&2
  sleep $((attempt * 5))
done
echo "python-tools: could not install dbt/requirements.txt from PyPI into ${venv}; check the machine's way to PyPI (pip config, proxy)" >&2
exit 1
