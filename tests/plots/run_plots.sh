#!/usr/bin/env bash
# Runs each plot tool on real output: `sassim run --out` results of bundled traces (V100
# Rodinia BFS for the CPI stack, A100 FlashInfer elementwise/GEMM kernels for the roofline),
# a real `sassim sweep` of two GTX 1080 traces, and a sweep table in the merged layout
# (data/sweep.csv); checks the PNGs and the errors.
# Usage: run_plots.sh SASSIM_BINARY PYTHON REPO_ROOT
set -uo pipefail
sassim="$1"
python="$2"
root="$3"
scripts="$root/scripts"
here="$root/tests/plots"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# shellcheck source=SCRIPTDIR/../expect.sh
source "$(dirname "${BASH_SOURCE[0]}")/../expect.sh"

# run_ok OUTPUT_PNG -- COMMAND...: the command exits 0 and writes a valid PNG.
run_ok() {
  local png="$1"
  shift 2
  if ! "$@"; then
    fail "$* exited $?"
  elif ! "$python" "$here/check_png.py" "$png"; then
    fail "$* wrote no valid PNG"
  fi
}

# run_error PATTERN -- COMMAND...: the command exits 1 with a message matching PATTERN.
run_error() {
  local pattern="$1" out rc
  shift 2
  out="$("$@" 2>&1)"
  rc=$?
  if [[ "$rc" != 1 ]] || ! grep -Eq -- "$pattern" <<<"$out"; then
    fail "$* -> exit $rc, output did not match /$pattern/: $out"
  else
    echo "ok: error /$pattern/"
  fi
}

traces="$root/traces/reference"
"$sassim" run -q "$traces/v100-rodinia-bfs/util/tracer_nvbit/traces/bfs-rodinia-3.1" \
  --out "$work/bfs.h5" >/dev/null || fail "sassim run bfs"
"$sassim" run -q "$traces/a100-flashinfer/test-traces/flashinfer-gemm/traces" \
  --out "$work/gemm.h5" >/dev/null || fail "sassim run gemm"

run_ok "$work/cpi.png" -- "$python" "$scripts/plot_cpi_stack.py" "$work/bfs.h5" -o "$work/cpi.png"
run_ok "$work/cpi3.png" -- "$python" "$scripts/plot_cpi_stack.py" "$work/bfs.h5" --kernels 1,2,3 -o "$work/cpi3.png"
run_ok "$work/roof.png" -- "$python" "$scripts/plot_roofline.py" "$work/gemm.h5" -o "$work/roof.png"
run_ok "$work/roof32.png" -- "$python" "$scripts/plot_roofline.py" "$work/gemm.h5" --flops fp32 -o "$work/roof32.png"
run_ok "$work/roof_f16.png" -- "$python" "$scripts/plot_roofline.py" "$work/gemm.h5" --tensor f16,tf32 -o "$work/roof_f16.png"
run_ok "$work/roof_none.png" -- "$python" "$scripts/plot_roofline.py" "$work/gemm.h5" --tensor none -o "$work/roof_none.png"
# The a100 file's tensor ceilings are the simulator's peaks: 312 TFLOP/s FP16 and BF16
# (A100 whitepaper), no FP8.
"$python" "$scripts/plot_roofline.py" "$work/gemm.h5" -o "$work/roof.png" | \
  grep -q "tensor f16 311.9 TFLOP/s, tensor bf16 311.9 TFLOP/s, tensor tf32 155.9 TFLOP/s" || \
  fail "plot_roofline: a100 tensor ceilings"
run_ok "$work/roof_bfs.png" -- "$python" "$scripts/plot_roofline.py" "$work/bfs.h5" -o "$work/roof_bfs.png"
run_ok "$work/energy.png" -- "$python" "$scripts/plot_energy.py" "$work/bfs.h5" -o "$work/energy.png"
run_ok "$work/power.png" -- "$python" "$scripts/plot_energy.py" "$work/gemm.h5" --power --kernels 1 -o "$work/power.png"
run_ok "$work/sweep.png" -- "$python" "$scripts/plot_sweep.py" "$here/data/sweep.csv" -o "$work/sweep.png"
run_ok "$work/sweep_ipc.png" -- "$python" "$scripts/plot_sweep.py" "$here/data/sweep.csv" --stat ipc --kernel 1 --logy -o "$work/sweep_ipc.png"

# A real sweep, when this sassim has the sweep command.
if "$sassim" sweep --help >/dev/null 2>&1; then
  gtx="$traces/gtx1080-microgpusim/test-apps"
  cat >"$work/spec.txtpb" <<EOF
base_config: "gtx1080"
trace: "$gtx/vectoradd/traces/vectoradd-100-32-trace"
trace: "$gtx/matrixmul/traces/matrixmul-32-32-trace"
axis { path: "l2.hit_latency_cycles" values: ["50", "100", "200"] }
output: "$work/sweep"
EOF
  "$sassim" sweep "$work/spec.txtpb" -j 2 --no-progress >/dev/null || fail "sassim sweep"
  run_ok "$work/real_sweep.png" -- "$python" "$scripts/plot_sweep.py" "$work/sweep/sweep.csv" -o "$work/real_sweep.png"
  run_ok "$work/real_sweep_h5.png" -- "$python" "$scripts/plot_sweep.py" "$work/sweep/sweep.h5" \
    --stat "gpu.sm[*].warp_cycles.long_scoreboard" -o "$work/real_sweep_h5.png"
else
  echo "note: this sassim has no sweep command; plot_sweep ran on data/sweep.csv only"
fi

for tool in plot_cpi_stack plot_roofline plot_sweep plot_energy; do
  "$python" "$scripts/$tool.py" --help | grep -q "usage:" || fail "$tool --help"
done
echo "not hdf5" >"$work/bad.h5"
run_error "bad.h5: cannot open as HDF5" -- "$python" "$scripts/plot_cpi_stack.py" "$work/bad.h5" -o "$work/x.png"
run_error "no kernel id 99" -- "$python" "$scripts/plot_cpi_stack.py" "$work/bfs.h5" --kernels 99 -o "$work/x.png"
run_error "no flops.fp64x counters \\(the results have" -- "$python" "$scripts/plot_roofline.py" "$work/gemm.h5" --flops fp64x -o "$work/x.png"
run_error "no kernel id 99" -- "$python" "$scripts/plot_energy.py" "$work/bfs.h5" --kernels 99 -o "$work/x.png"
run_error "gemm.h5: the config has no fp8 tensor peak" -- "$python" "$scripts/plot_roofline.py" "$work/gemm.h5" --tensor fp8 -o "$work/x.png"
run_error "unknown tensor precision 'fp4'" -- "$python" "$scripts/plot_roofline.py" "$work/gemm.h5" --tensor fp4 -o "$work/x.png"
run_error "no column nope" -- "$python" "$scripts/plot_sweep.py" "$here/data/sweep.csv" --param nope -o "$work/x.png"
run_error "expected a sweep table" -- "$python" "$scripts/plot_sweep.py" "$work/bfs.txt" -o "$work/x.png"

finish
