#!/usr/bin/env bash
# `sassim capture` end to end: a checked capture replays; bad input gives a clear error.
# Usage: capture_cli.sh SASSIM_BINARY REPO_ROOT
set -uo pipefail
sassim="$1"
root="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# shellcheck source=SCRIPTDIR/../expect.sh
source "$(dirname "${BASH_SOURCE[0]}")/../expect.sh"

listings="$root/kernels/sass"
# 2048 elements: 64 warps of 16 instructions each (the sm_80 listing has no branch).
expect 0 "2048 of 2048 values match" -- \
  "$sassim" capture vectoradd 2048 --listing "$listings/sm_80" -o "$work/vadd" --check
expect 0 "1024 warp instructions" -- "$sassim" trace info "$work/vadd"
expect 0 "total \(1 kernels\)" -- "$sassim" run -q "$work/vadd" --config a100
expect 0 "values match" -- \
  "$sassim" capture reduce_sum 8192 4 --listing "$listings/sm_90/reduce_sum.sass" --check
expect 1 "unknown suite kernel 'nosuch'" -- "$sassim" capture nosuch
expect 1 "no/such.*not a listing" -- "$sassim" capture vectoradd 256 --listing "$root/no/such"
expect 1 "no function saxpy" -- \
  "$sassim" capture saxpy 256 --listing "$listings/sm_80/vectoradd.sass"
expect 0 "16384 of 16384 values match" -- \
  "$sassim" capture bf16_gemm_wgmma 128 128 128 --listing "$listings/sm_90a" --check

# An instruction the executor does not implement names the file, line, PC and opcode.
mkdir -p "$work/sm_80"
sed 's/FADD R9, R4, R3 ;/DMNMX R8, R4, R2 ;/' "$listings/sm_80/vectoradd.sass" \
  >"$work/sm_80/vectoradd.sass"
expect 1 "vectoradd.sass:[0-9]+: PC 0x00d0: DMNMX: unsupported opcode DMNMX" -- \
  "$sassim" capture vectoradd 256 --listing "$work/sm_80"

# A Hopper form the executor does not implement is named the same way.
mkdir -p "$work/sm_90a"
sed 's/UTMALDG.2D \[UR16\]/UTMALDG.3D [UR16]/' "$listings/sm_90a/bf16_gemm_wgmma.sass" \
  >"$work/sm_90a/bf16_gemm_wgmma.sass"
expect 1 "bf16_gemm_wgmma.sass:[0-9]+: PC 0x02d0: UTMALDG.3D: unsupported form UTMALDG.3D" -- \
  "$sassim" capture bf16_gemm_wgmma 128 128 128 --listing "$work/sm_90a"

finish
