#!/usr/bin/env bash
# sassim collective: the nccl-tests-like table, json and csv agree; bad input is a clear
# error with exit 2 (usage) or 1 (a system the model cannot run it on).
# Usage: collective_cli.sh SASSIM_BINARY REPO_ROOT
set -uo pipefail
sassim="$1"
root="$2"
py=/usr/bin/python3

# shellcheck source=SCRIPTDIR/../expect.sh
source "$(dirname "${BASH_SOURCE[0]}")/../expect.sh"
make_work_dir

# The table: a header and one row per size, 8 B to 2 MiB by 4x.
expect 0 "^ +2097152 +524288 +fp32 " -- "$sassim" collective --system h100x8 --op all_reduce \
  --bytes 8:2M --step-factor 4
rows="$("$sassim" collective --system h100x8 --op all_reduce --bytes 8:2M --step-factor 4 | grep -vc '^#')"
[[ "$rows" == 10 ]] || fail "8:2M by 4 should give 10 rows, got $rows"
expect 0 "size\(B\) +count +type +time\(us\) +algbw\(GB/s\) +busbw\(GB/s\) +algorithm +protocol" -- \
  "$sassim" collective --system a100x8 --op alltoall --bytes 1M
# Forced algorithm and protocol show in the row.
expect 0 " ring +ll128 " -- "$sassim" collective --system h200x8 --op all_reduce --bytes 64M \
  --algo ring --proto ll128
expect 0 " nvls +simple " -- "$sassim" collective --system h200x8 --op all_gather --bytes 1G \
  --algo nvls
# A system file by path.
expect 0 "NVIDIA DGX A100" -- "$sassim" collective --system "$root/configs/systems/a100x8.txtpb" \
  --op reduce_scatter --bytes 4K

# json and csv hold the same figures as each other.
"$sassim" collective --system h200x16-2node --op all_reduce --bytes 1M:16M --format json \
  >"$work/out.json" || fail "json run failed"
"$sassim" collective --system h200x16-2node --op all_reduce --bytes 1M:16M --format csv \
  >"$work/out.csv" || fail "csv run failed"
$py - "$work/out.json" "$work/out.csv" <<'PY' || fail "json and csv disagree"
import csv, json, sys
doc = json.load(open(sys.argv[1]))
rows = list(csv.DictReader(open(sys.argv[2])))
assert doc["ranks"] == 16 and len(doc["results"]) == 5 == len(rows), (doc, rows)
for j, c in zip(doc["results"], rows):
    assert j["size_bytes"] == int(c["size_bytes"])
    assert abs(j["time_us"] - float(c["time_us"])) <= 1e-9 * j["time_us"]
    assert j["busbw_gb_per_s"] > 0 and j["links"] and len(j["gpus"]) == 16
    assert all(0 <= l["utilisation"] <= 1 for l in j["links"])
PY

# Usage errors exit 2 and say what was expected.
expect 2 "--op: unknown value 'broadcast' \(accepted: all_reduce, all_gather, reduce_scatter, alltoall, sendrecv\)" -- \
  "$sassim" collective --system h100x8 --op broadcast
expect 2 "--bytes: '8X' has an unknown unit 'X'" -- "$sassim" collective --system h100x8 --op all_reduce --bytes 8X
expect 2 "--bytes 1M:8: MAX is below MIN" -- "$sassim" collective --system h100x8 --op all_reduce --bytes 1M:8
expect 2 "--dtype: unknown value 'int8' \(accepted: bf16, fp16, fp32\)" -- \
  "$sassim" collective --system h100x8 --op all_reduce --dtype int8
expect 2 "--gpus 9: the system has 8 GPUs" -- "$sassim" collective --system h100x8 --op all_reduce --gpus 9
expect 2 "system is required" -- "$sassim" collective --op all_reduce
# Errors of the model or the config exit 1.
expect 1 "all_reduce with algorithm nvls and protocol auto is not possible on NVIDIA DGX A100" -- \
  "$sassim" collective --system a100x8 --op all_reduce --algo nvls
expect 1 "unknown system preset 'h300x8'" -- "$sassim" collective --system h300x8 --op all_reduce
sed 's/links_per_gpu: 18 /links_per_gpu: 99 /' "$root/configs/systems/h100x8.txtpb" >"$work/bad.txtpb"
expect 1 "bad.txtpb:[0-9]+:[0-9]+: nvlink.links_per_gpu = 99 is out of range \[0, 36\] links" -- \
  "$sassim" collective --system "$work/bad.txtpb" --op all_reduce

finish
