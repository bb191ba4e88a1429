#!/usr/bin/env bash
# scripts/measure-layer.sh on a small prefill: 16 launch rows whose warp instructions add
# up to the layer's total, the workload's figures per token, the resources of both steps;
# a run that cannot start is an error, not a table.
# Usage: measure_layer.sh SASSIM_BINARY REPO_ROOT
set -uo pipefail
sassim="$1"
root="$2"

# shellcheck source=SCRIPTDIR/../expect.sh
source "$(dirname "${BASH_SOURCE[0]}")/../expect.sh"
make_work_dir

small=(dense-layer --phase prefill --batch 2 --context 128 --hidden 256 --heads 4 --kv-heads 1
  --ffn 256)
out="$(SASSIM="$sassim" "$root/scripts/measure-layer.sh" h200 "${small[@]}" 2>&1)"
rc=$?
[[ $rc == 0 ]] || fail "measure-layer exited $rc: $out"
rows="$(grep -Ec '^\| [0-9]+ [a-z_]+ \| [a-z_0-9]+ \| ' <<<"$out")"
[[ "$rows" == 16 ]] || fail "expected 16 launch rows, found $rows: $out"
sum="$(grep -E '^\| [0-9]+ ' <<<"$out" | awk -F'|' '{gsub(/,/, "", $5); s += $5} END {print s}')"
total="$(sed -n 's/^| \*\*layer\*\* | | | \*\*\([0-9,]*\)\*\*.*/\1/p' <<<"$out" | tr -d ,)"
[[ -n "$total" && "$sum" == "$total" ]] || fail "rows add up to $sum, the total says '$total': $out"
grep -q "prefill_attention" <<<"$out" || fail "no attention row: $out"
grep -Eq "^- 256 tokens \(prefill, batch 2, context 128\): the layer [0-9.]+ us" <<<"$out" ||
  fail "no workload figures: $out"
grep -Eq "the replay [0-9.]+ s wall, [0-9.]+ s CPU, [0-9]+ KiB peak" <<<"$out" ||
  fail "no replay resources: $out"
expect 1 "measure-layer: no sassim binary at $work/none" -- \
  env SASSIM="$work/none" "$root/scripts/measure-layer.sh" h200 "${small[@]}"
expect 1 "--context 100 with --phase prefill: expected a multiple of 64" -- \
  env SASSIM="$sassim" "$root/scripts/measure-layer.sh" h200 dense-layer --phase prefill --context 100
finish
