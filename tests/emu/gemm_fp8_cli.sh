#!/usr/bin/env bash
# scripts/gemm-fp8-vs-bf16.sh on a one-cluster problem (256 x 256 x 256): it captures both
# warp-specialised GEMMs with the check, replays them and prints each one's share of its
# dense peak and the FP8 / BF16 ratio; KERNELS picks the kernels, CHECK=0 skips the
# reference; bad values are refused before any work.
# Usage: gemm_fp8_cli.sh SASSIM_BINARY REPO_ROOT
set -uo pipefail
sassim="$1"
root="$2"

# shellcheck source=SCRIPTDIR/../expect.sh
source "$(dirname "${BASH_SOURCE[0]}")/../expect.sh"

script="$root/scripts/gemm-fp8-vs-bf16.sh"
run() { env SASSIM="$sassim" "$@"; }
expect 0 "h200, 132 SMs at 1980 MHz; 256 x 256 x 256" -- run "$script" 256 256 256
expect 0 "check: bf16_gemm_ws: 65536 of 65536 values match the CPU reference" -- \
  run "$script" 256 256 256
expect 0 "fp8_gemm_wgmma +[0-9]+ cycles +[0-9.]+ TFLOP/s of +2141\.1 dense peak: +[0-9.]+%" -- \
  run "$script" 256 256 256
expect 0 "bf16_gemm_ws +[0-9]+ cycles +[0-9.]+ TFLOP/s of +1070\.5 dense peak" -- \
  run "$script" 256 256 256
expect 0 "fp8_gemm_wgmma / bf16_gemm_ws: [0-9.]+ x the TFLOP/s" -- run "$script" 256 256 256
expect 0 "bf16_gemm_wgmma +[0-9]+ cycles" -- run env KERNELS=bf16_gemm_wgmma CHECK=0 "$script" 256 256 256
expect 1 "sizes must be integers, found 'x'" -- run "$script" x 256 256
expect 1 "no sassim binary at /no/such" -- env SASSIM=/no/such "$script" 256 256 256
finish
