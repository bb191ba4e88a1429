#!/usr/bin/env bash
# --format table|json|csv of run, trace info and config show: stdout holds the document
# alone (notes go to stderr), JSON parses, and its numbers are the results file's.
# Usage: output_formats.sh SASSIM_BINARY REPO_ROOT
set -uo pipefail
sassim="$1"
root="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
trace="$root/tests/data/traces/small_workload"
bfs="$root/traces/reference/v100-rodinia-bfs/util/tracer_nvbit/traces/bfs-rodinia-3.1"
py=/usr/bin/python3

# shellcheck source=SCRIPTDIR/../expect.sh
source "$(dirname "${BASH_SOURCE[0]}")/../expect.sh"

# check NAME COMMAND...: counts a failure when the command fails, printing its output.
check() {
  local name="$1" out
  shift
  if out="$("$@" 2>&1)"; then echo "ok: $name"; else fail "$name: $out"; fi
}

# An unknown format is a usage error, found before anything runs.
accepted="unknown format 'xml' \(accepted: table, json, csv\)"
expect 2 "--format: $accepted" -- "$sassim" run -q --format xml "$trace"
expect 2 "$accepted" -- "$sassim" trace info --format xml "$bfs"
expect 2 "$accepted" -- "$sassim" config show h100 --format xml
out="$("$sassim" run -q --format xml "$trace" 2>&1)"
if grep -q "simulating" <<<"$out"; then fail "--format xml: the run started: $out"; fi

# run: the table by default and with --format table, notes on stdout.
"$sassim" run -q -c a100 "$trace" >"$work/default.txt" 2>/dev/null || fail "run (table) failed"
for pattern in "^simulating " "^ +id +kernel +cycles" "total \(2 kernels\)" "^peak memory"; do
  grep -Eq "$pattern" "$work/default.txt" || fail "table output lacks /$pattern/"
done
"$sassim" run -q -c a100 --format table "$trace" >"$work/table.txt" 2>/dev/null
# Same lines but for host timings (sim inst/s, seconds, peak memory).
strip() { sed -E 's/[0-9]+(\.[0-9]+)?//g; s/ +/ /g' "$1"; }
[[ "$(strip "$work/default.txt")" == "$(strip "$work/table.txt")" ]] ||
  fail "--format table differs from the default output"

# run --format json / csv: stdout is the document, notes go to stderr.
"$sassim" run -q -c a100 --format json --out "$work/j.h5" "$trace" >"$work/run.json" \
  2>"$work/run.json.err" || fail "run --format json failed: $(cat "$work/run.json.err")"
"$sassim" run -q -c a100 --format csv --out "$work/c.h5" "$trace" >"$work/run.csv" \
  2>"$work/run.csv.err" || fail "run --format csv failed: $(cat "$work/run.csv.err")"
check "run json parses" $py -c 'import json,sys; json.load(sys.stdin)' <"$work/run.json"
for f in run.json.err run.csv.err; do
  for pattern in "^simulating NVIDIA A100" "^simulated [0-9]+ warp instructions" "^peak memory" \
    "^results written to"; do
    grep -Eq "$pattern" "$work/$f" || fail "$f lacks /$pattern/"
  done
done
check "run json equals the results file" $py - "$work/run.json" "$work/j.h5" <<'PY'
import json, math, sys, h5py
doc = json.load(open(sys.argv[1]))
with h5py.File(sys.argv[2]) as f:
    rows = f["kernels"][:]
    names = rows.dtype.names
    split = f["energy/joules"][:]
    parts = list(f["energy/joules"].attrs["components"])
assert doc["config_name"] == "a100" and doc["partial"] is False, doc
assert len(doc["kernels"]) == len(rows) == 2, (len(doc["kernels"]), len(rows))
for k, row, joules in zip(doc["kernels"], rows, split):
    # The /kernels columns in order, then the json-only energy split (/energy/joules).
    assert list(k) == list(names) + ["energy_split_j"], (list(k), names)
    assert list(k["energy_split_j"].values()) == list(joules), (k["energy_split_j"], joules)
    assert list(k["energy_split_j"]) == [p.decode() if isinstance(p, bytes) else p for p in parts]
    for name in names:
        want = row[name].decode() if isinstance(row[name], bytes) else row[name]
        # JSON has no NaN or infinity: such a value is null.
        not_finite = isinstance(want, float) and not math.isfinite(want)
        assert k[name] == want or (not_finite and k[name] is None), (name, k[name], want)
for key in ("id", "name", "cycles", "warp_instructions", "ipc", "l1_hit_rate", "l2_hit_rate", "dram_bytes"):
    assert key in doc["kernels"][0], key
t = doc["total"]
assert t["kernels"] == 2
assert t["cycles"] == sum(int(r["cycles"]) for r in rows)
assert t["warp_instructions"] == sum(int(r["warp_instructions"]) for r in rows)
assert t["dram_bytes"] == sum(float(r["dram_bytes"]) for r in rows)
assert abs(t["ipc"] - t["warp_instructions"] / t["cycles"]) < 1e-12
PY
check "run csv equals the results file" $py - "$work/run.csv" "$work/c.h5" <<'PY'
import csv, sys, h5py
lines = list(csv.reader(open(sys.argv[1], newline="")))
with h5py.File(sys.argv[2]) as f:
    rows = f["kernels"][:]
names = list(rows.dtype.names)
assert lines[0] == names, (lines[0], names)
assert len(lines) == 1 + len(rows) == 3, lines
for line, row in zip(lines[1:], rows):
    for name, text in zip(names, line):
        want = row[name]
        got = text if isinstance(want, (str, bytes)) else type(want.item())(text)
        if isinstance(want, bytes): want = want.decode()
        assert got == want or (got != got and want != want), (name, text, want)  # NaN is nan
PY

# trace info --format json / csv.
"$sassim" trace info --format json "$bfs" >"$work/info.json" || fail "trace info json failed"
"$sassim" trace info --format csv "$bfs" >"$work/info.csv" || fail "trace info csv failed"
check "trace info json and csv" $py - "$work/info.json" "$work/info.csv" <<'PY'
import csv, json, sys
doc = json.load(open(sys.argv[1]))
assert len(doc["kernels"]) == 16 and doc["total"]["kernels"] == 16
assert doc["total"]["warp_instructions"] == 154839
assert sum(k["warp_instructions"] for k in doc["kernels"]) == 154839
k = doc["kernels"][0]
assert k["name"] == "_Z6KernelP4NodePiPbS2_S2_S1_i" and k["arch"] == "sm_70", k
assert (k["grid_x"], k["block_x"]) == (8, 512), k
assert sum(k["opcode_mix"].values()) == k["warp_instructions"]
assert sum(doc["total"]["opcode_mix"].values()) == 154839
rows = list(csv.DictReader(open(sys.argv[2], newline="")))
assert len(rows) == 16
assert sum(int(r["warp_instructions"]) for r in rows) == 154839
assert [int(r["warp_instructions"]) for r in rows] == [k["warp_instructions"] for k in doc["kernels"]]
PY
expect 0 "^total: 16 kernels, 154839 warp instructions" -- "$sassim" trace info "$bfs"

# config show --format json / csv: the config of the text format, field for field.
"$sassim" config show h100 --set num_sms=130 --set cluster.gpc_sms= >"$work/h100.txt" ||
  fail "config show failed"
"$sassim" config show h100 --set num_sms=130 --set cluster.gpc_sms= --format json >"$work/h100.json" ||
  fail "config show json failed"
"$sassim" config show h100 --set num_sms=130 --set cluster.gpc_sms= --format csv >"$work/h100.csv" ||
  fail "config show csv failed"
check "config json and csv equal the text" env PYTHONPATH="$root/python" $py - \
  "$work/h100.txt" "$work/h100.json" "$work/h100.csv" <<'PY'
import csv, json, sys
from sassim.config_text import parse_config_text
flat = parse_config_text(open(sys.argv[1]).read())
doc = json.load(open(sys.argv[2]))
assert doc["num_sms"] == 130 and doc["sm"]["opcode_latency_cycles"]["HGMMA"] == 128, doc["num_sms"]
lines = list(csv.reader(open(sys.argv[3], newline="")))
assert lines[0] == ["path", "value"], lines[0]
got = dict(lines[1:])
assert len(got) == len(lines) - 1, "a path twice"
assert set(got) == set(flat), sorted(set(got) ^ set(flat))
for path, want in flat.items():
    text = got[path]
    value = (text == "true") if isinstance(want, bool) else type(want)(text)
    assert value == want, (path, text, want)
assert got["num_sms"] == "130" and got["sm.opcode_latency_cycles.HGMMA"] == "128"
PY

finish
