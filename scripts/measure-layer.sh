#!/usr/bin/env bash
# Captures a `sassim workload` layer, replays it on a preset with the listings the capture
# names, and prints the table docs/LLM.md shows (scripts/layer_table.py) with the capture's
# and the replay's wall time, CPU time and peak memory.
#   scripts/measure-layer.sh PRESET WORKLOAD_ARGS...
#   scripts/measure-layer.sh h200 dense-layer --phase prefill --context 512
# Needs build/sim/cli/sassim (SASSIM=... for another binary); KEEP=DIR keeps the trace there.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
sassim="${SASSIM:-$root/build/sim/cli/sassim}"
[[ -x "$sassim" ]] || { echo "measure-layer: no sassim binary at $sassim" >&2; exit 1; }
(($# >= 2)) || { echo "usage: measure-layer.sh PRESET WORKLOAD_ARGS..." >&2; exit 2; }
preset="$1"
shift
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
folder="${KEEP:-$work/layer}"
timed() {  # timed LOG COMMAND...: runs it, its stdout to LOG, a summary of its resources after
  local log="$1"
  shift
  /usr/bin/time -f "%e s wall, %U s CPU, %M KiB peak" -o "$log.time" "$@" >"$log"
}
timed "$work/capture.log" "$sassim" workload "$@" -q -o "$folder"
read -ra replay <<<"$(sed -n 's/^replay: sassim run //p' "$work/capture.log")"
# The capture prints `-c h200`: replay on the preset asked for instead.
for i in "${!replay[@]}"; do
  [[ "${replay[$i]}" == -c ]] && replay[$((i + 1))]="$preset"
done
timed "$work/run.json" "$sassim" run -q --format json "${replay[@]}" 2>"$work/run.err" ||
  { cat "$work/run.err" >&2; exit 1; }
echo "sassim workload $* on $preset"
echo
python3 "$root/scripts/layer_table.py" "$work/capture.log" "$work/run.json"
sed -n 's/^captured \([0-9]*\) launches: \([0-9]*\) warp instructions in \(.*\) s .*/- Capture: \2 warp instructions, \3 s in the executor;/p' "$work/capture.log"
echo "  the capture took $(cat "$work/capture.log.time"); the replay $(cat "$work/run.json.time")."
