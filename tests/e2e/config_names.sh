#!/usr/bin/env bash
# Name-valued config fields are checked when a config is loaded, by every command that
# loads one: the message names the field, the value, the accepted names and a close one.
# Usage: config_names.sh SASSIM_BINARY REPO_ROOT
set -uo pipefail
sassim="$1"
root="$2"

# shellcheck source=SCRIPTDIR/../expect.sh
source "$(dirname "${BASH_SOURCE[0]}")/../expect.sh"
make_work_dir

policies='is not one of: gto, gty, lrr, two_level'
lrx="sm.scheduler.policy = \"lrx\" $policies \(did you mean \"lrr\"\?\)"
expect 1 "$lrx" -- "$sassim" config show a100 --set sm.scheduler.policy=lrx
expect 1 "sm.scheduler.policy = \"foo\" $policies\$" -- \
  "$sassim" config show a100 --set sm.scheduler.policy=foo
expect 0 "policy: \"two_level\"" -- "$sassim" config show a100 --set sm.scheduler.policy=two_level
expect 1 "$lrx" -- "$sassim" run -q "$root/tests/data/cli/vectoradd_sm80" --set sm.scheduler.policy=lrx
expect 1 'l2.address_hash = "ipolly" is not one of: linear, xor, ipoly \(did you mean "ipoly"\?\)' -- \
  "$sassim" config show h100 --set l2.address_hash=ipolly
expect 1 'dram.type = "HBM4" is not one of: HBM2, HBM2e, HBM3, HBM3e, GDDR5, GDDR5X, GDDR6, GDDR6X' -- \
  "$sassim" config show h100 --set dram.type=HBM4
expect 1 'dram.address_scheme = "bank_row" is not one of: row_column_bank, row_bank_column' -- \
  "$sassim" config show h100 --set dram.address_scheme=bank_row

# A sweep axis value is checked by --dry-run, before anything runs.
cat >"$work/spec.txtpb" <<SPEC
base_config: "gtx1080"
trace: "$root/traces/reference/gtx1080-microgpusim/test-apps/vectoradd/traces/vectoradd-100-32-trace"
axis { path: "sm.scheduler.policy" values: ["gto", "lrx"] }
output: "out"
SPEC
expect 1 "config point sm.scheduler.policy=lrx: $lrx" -- "$sassim" sweep "$work/spec.txtpb" --dry-run
[[ ! -e "$work/out" ]] || { echo "FAIL: --dry-run created files"; failures=$((failures + 1)); }

# A unified L1 smaller than its shared memory: no wrapped-around byte counts.
expect 1 "l1.shared_memory_bytes = 98304 exceeds l1.unified_size_bytes = 32768" -- \
  "$sassim" config show v100 --set l1.unified_size_bytes=32768
out="$("$sassim" config show v100 --set l1.unified_size_bytes=32768 2>&1)"
if grep -q "4294" <<<"$out"; then
  echo "FAIL: underflowed byte count in: $out"
  failures=$((failures + 1))
fi

finish
