#!/usr/bin/env bash
# Installs the sassim package the way scripts/setup.sh does (scripts/install-python.sh),
# into a fresh virtual environment, and checks that it imports from any folder, runs from
# the repository's python/ tree, and loads results there.
# Usage: install_test.sh REPO_ROOT SASSIM_BINARY
set -euo pipefail
root="$1"
binary="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

if ! /usr/bin/python3 -c "import ensurepip, venv" 2>/dev/null; then
  echo "FAIL: /usr/bin/python3 cannot create virtual environments;" \
    "scripts/setup.sh installs python3-venv"
  exit 1
fi
"$root/scripts/install-python.sh" "$work/venv"
trace="$root/traces/reference/gtx1080-microgpusim/test-apps/vectoradd/traces/vectoradd-100-32-trace"
"$binary" run "$trace" --config gtx1080 --out "$work/r.h5" -q >/dev/null
cd "$work"
"$work/venv/bin/python" - "$root" "$work/r.h5" <<'PY'
import os, sys
import sassim
root, results = sys.argv[1], sys.argv[2]
where = os.path.dirname(sassim.__file__)
assert where == os.path.join(root, "python", "sassim"), f"sassim imported from {where}"
df = sassim.load_results(results)
assert df["num_sms"][0] == 20 and df["cycles"][0] > 0, df.iloc[0]
print(f"ok: {sys.executable} imports sassim {sassim.__version__} from {where}; "
      f"vectoradd: {df['cycles'][0]} cycles")
PY
# Installing again is a no-op.
"$root/scripts/install-python.sh" "$work/venv" | { ! grep -q .; } || {
  echo "FAIL: a second install-python.sh printed something"; exit 1; }
echo "passed"
