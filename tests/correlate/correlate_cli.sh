#!/usr/bin/env bash
# `sassim correlate` end to end: a real run of the GTX 1080 vectoradd trace against the
# bundled Nsight Compute and nvprof measurements, and clear errors on bad input.
# Usage: correlate_cli.sh SASSIM_BINARY REPO_ROOT
set -uo pipefail
sassim="$1"
root="$2"
hw="$root/tests/data/hw/gtx1080-microgpusim"
trace="$root/traces/reference/gtx1080-microgpusim/test-apps/vectoradd/traces/vectoradd-100-32-trace"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# shellcheck source=SCRIPTDIR/../expect.sh
source "$(dirname "${BASH_SOURCE[0]}")/../expect.sh"

"$sassim" run -q "$trace" --out "$work/r.h5" >/dev/null || { echo "FAIL: sassim run"; exit 1; }
nsight="$hw/profile/tests/nsight_vectoradd_100_32_metrics_all.csv"
nvprof="$hw/test-apps/vectoradd/traces/nvprof.log"

expect 0 "5773.25 +[-+][0-9.]+%" -- "$sassim" correlate --sim "$work/r.h5" --hw "$nsight" --out "$work/ncu"
for f in correlation.csv summary.json scatter.svg error_histogram.svg report.html; do
  [[ -s "$work/ncu/$f" ]] || { echo "FAIL: $work/ncu/$f missing or empty"; failures=$((failures + 1)); }
done
expect 0 "Pearson correlation: undefined with n = 1" -- "$sassim" correlate --sim "$work/r.h5" --hw "$nsight" --out "$work/ncu"
expect 0 "unmatched: 0 simulated, 2 hardware" -- "$sassim" correlate --sim "$work/r.h5" --hw "$nsight" --out "$work/ncu"
expect 0 "4467.75" -- "$sassim" correlate --sim "$work/r.h5" --hw "$nvprof" --out "$work/nvprof"
expect 0 "4467.75" -- "$sassim" correlate --sim "$work/r.h5" --hw "$nvprof" --num-sms 20 --out "$work/nvprof"
expect 0 "8935.5" -- "$sassim" correlate --sim "$work/r.h5" --hw "$nvprof" --num-sms 10 --out "$work/nvprof"
expect 0 "gpu__time_duration x 1759 MHz" -- "$sassim" correlate --sim "$work/r.h5" --hw "$nsight" --hw-metric gpu__time_duration --out "$work/t"
expect 0 "Usage" -- "$sassim" correlate --help
# A damaged results file is an error naming it, not a crash inside HDF5: one bit of the
# kernel name's heap entry flipped, and the file cut short.
cp "$work/r.h5" "$work/flipped.h5"
/usr/bin/python3 -c '
import sys
d = bytearray(open(sys.argv[1], "rb").read())
at = d.find(b"_Z6vecAdd")
assert at > 0
d[at - 8] ^= 1
open(sys.argv[1], "wb").write(d)' "$work/flipped.h5"
expect 1 "flipped.h5: damaged: CRC-32 [0-9a-f]{8} of its contents, [0-9a-f]{8} sealed" -- "$sassim" correlate --sim "$work/flipped.h5" --hw "$nsight" --out "$work/f"
head -c 4096 "$work/r.h5" >"$work/cut.h5"
expect 1 "cut.h5: truncated or damaged: 3584 bytes after the seal, [0-9]+ sealed" -- "$sassim" correlate --sim "$work/cut.h5" --hw "$nsight" --out "$work/f"
# A run stopped before its end (SIGINT, SIGTERM) is refused: its sums would miss kernels.
cp "$work/r.h5" "$work/partial.h5"
/usr/bin/python3 -c '
import sys, zlib, h5py
with h5py.File(sys.argv[1], "r+") as f:
    f.attrs.modify("partial", 1)
with open(sys.argv[1], "r+b") as f:  # sealed again (ground/file_seal.h)
    f.seek(512)
    body = f.read()
    f.seek(0)
    f.write(f"sassim-seal v1 bytes={len(body)} crc32={zlib.crc32(body):08x}\n".encode().ljust(512, b"\0"))
' "$work/partial.h5"
expect 1 "partial.h5: the run was stopped before its end \(attribute partial = 1\)" -- "$sassim" correlate --sim "$work/partial.h5" --hw "$nsight" --out "$work/p"

echo "foo,bar" >"$work/unknown.csv"
expect 1 "unknown.csv:1: unknown hardware measurement format" -- "$sassim" correlate --sim "$work/r.h5" --hw "$work/unknown.csv" --out "$work/x"
expect 1 "nvprof-trace|gives durations.*--clock-mhz" -- "$sassim" correlate --sim "$work/r.h5" --hw <(printf '"Start","Duration","Grid X","Name"\n1,2,1,"k"\n') --out "$work/x"
expect 1 "nvprof.log: not an HDF5 file" -- "$sassim" correlate --sim "$nvprof" --hw "$nsight" --out "$work/x"
expect 1 "metrics_all.csv:1: the header has no \"run_id\" column" -- "$sassim" correlate --sim "$nsight" --hw "$nsight" --out "$work/x"
expect 1 "unknown --metric \"ipc\"" -- "$sassim" correlate --sim "$work/r.h5" --hw "$nsight" --metric ipc --out "$work/x"
expect 1 "no simulated kernel launch matched" -- "$sassim" correlate --sim "$work/r.h5" --hw "$root/tests/data/hw/gv100-accelwattch-hwperf/hw_perf.csv" --out "$work/x"
expect 2 "--sim is required" -- "$sassim" correlate --hw "$nsight" --out "$work/x"
expect 2 "File does not exist" -- "$sassim" correlate --sim "$work/none.h5" --hw "$nsight" --out "$work/x"

# One config point of a real sweep.
if "$sassim" sweep --help >/dev/null 2>&1; then
  cat >"$work/spec.txtpb" <<EOF
base_config: "gtx1080"
trace: "$trace"
axis { path: "l2.hit_latency_cycles" values: ["50", "100"] }
output: "$work/sweep"
EOF
  "$sassim" sweep "$work/spec.txtpb" -j 1 --no-progress >/dev/null || { echo "FAIL: sassim sweep"; failures=$((failures + 1)); }
  expect 0 "4467.75" -- "$sassim" correlate --sim "$work/sweep/sweep.csv" --point l2.hit_latency_cycles=100 --hw "$nvprof" --out "$work/sw"
  expect 1 "2 runs of trace .* remain" -- "$sassim" correlate --sim "$work/sweep/sweep.csv" --hw "$nvprof" --out "$work/sw"
fi

finish
