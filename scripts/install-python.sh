#!/usr/bin/env bash
# Makes the sassim Python package (python/) importable in a virtual environment (default:
# .venv of the repository): creates it from Debian's /usr/bin/python3 with
# --system-site-packages, so that Debian's numpy, pandas, h5py and matplotlib serve it,
# and installs the package in editable mode (its code stays in python/sassim).
# Nothing is downloaded: pip uses Debian's setuptools (--no-build-isolation) and no index.
# Usage: scripts/install-python.sh [VENV]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="${1:-$root/.venv}"
python=/usr/bin/python3

if [ ! -x "$venv/bin/python" ]; then
  "$python" -m venv --system-site-packages "$venv"
fi
# Already installed from this tree: nothing to do.
if (cd / && "$venv/bin/python" -c 'import sys, sassim; sys.exit(sassim.__file__ != sys.argv[1])' \
      "$root/python/sassim/__init__.py") 2>/dev/null; then
  exit 0
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-index --no-deps \
  --no-build-isolation --editable "$root/python"
(cd / && "$venv/bin/python" -c 'import sassim, pandas, h5py') || {
  echo "install-python: $venv: the sassim package does not import" >&2
  exit 1
}
echo "install-python: sassim importable in $venv ($venv/bin/python)"
