#!/usr/bin/env bash
# Captures the wgmma GEMMs at one size from their committed sm_90a listings (sassim
# capture --check), replays each on a preset with its listing's control bits (sassim run
# --sass), and prints each kernel's simulated tensor TFLOP/s against the preset's dense
# peak for its type: 4096 (BF16) and 8192 (FP8) FLOP per cycle per SM
# (configs/presets/h100.txtpb, the H100 whitepaper's 989.4 and 1978.9 TFLOP/s at 1830 MHz
# on 132 SMs) x SMs x core clock, and the FP8 kernel's rate over the BF16 one's of the
# same structure (bf16_gemm_ws).
#   scripts/gemm-fp8-vs-bf16.sh [M N K] [PRESET]   (default 2048 2048 2048 h200)
# KERNELS="..." picks the kernels (default: bf16_gemm_ws fp8_gemm_wgmma; bf16_gemm_wgmma
# is the one-warpgroup kernel), CHECK=0 captures without the CPU reference (its naive
# product takes longer than the capture from 8192^3 on). Needs build/sim/cli/sassim
# (SASSIM=... for another binary).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
sassim="${SASSIM:-$root/build/sim/cli/sassim}"
m="${1:-2048}" n="${2:-2048}" k="${3:-2048}" preset="${4:-h200}"
[[ -x "$sassim" ]] || { echo "gemm-fp8-vs-bf16: no sassim binary at $sassim" >&2; exit 1; }
for v in "$m" "$n" "$k"; do
  [[ "$v" =~ ^[0-9]+$ ]] || { echo "gemm-fp8-vs-bf16: sizes must be integers, found '$v'" >&2; exit 1; }
done
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
listings="$root/kernels/sass/sm_90a"
# SMs and clock of the preset, from the config sassim resolves.
config="$("$sassim" config show "$preset")"
sms="$(sed -n 's/^num_sms: \([0-9]*\).*/\1/p' <<<"$config" | head -1)"
mhz="$(sed -n 's/^ *core_mhz: \([0-9.]*\).*/\1/p' <<<"$config" | head -1)"
printf "%s, %s SMs at %s MHz; %s x %s x %s\n" "$preset" "$sms" "$mhz" "$m" "$n" "$k"
check=(--check)
[[ "${CHECK:-1}" == 0 ]] && check=()
declare -A rate
for kernel in ${KERNELS:-bf16_gemm_ws fp8_gemm_wgmma}; do
  per_clock=4096
  [[ "$kernel" == fp8_* ]] && per_clock=8192
  start=$(date +%s)
  "$sassim" capture "$kernel" "$m" "$n" "$k" --listing "$listings" "${check[@]}" -q \
    -o "$work/$kernel" | tail -1
  captured=$(date +%s)
  "$sassim" run "$work/$kernel" -c "$preset" --sass "$listings/$kernel.sass" -q >"$work/$kernel.txt"
  done_at=$(date +%s)
  # The kernel's line of the results table (cycles) and of the tensor table (TFLOP/s).
  cycles="$(awk -v k="$kernel" '$2 == k {print $3; exit}' "$work/$kernel.txt")"
  tflops="$(awk -v k="$kernel" '$2 == k && $3 ~ /%$/ {print $4; exit}' "$work/$kernel.txt")"
  [[ -n "$cycles" && -n "$tflops" ]] || { cat "$work/$kernel.txt" >&2; exit 1; }
  awk -v t="$tflops" -v p="$per_clock" -v s="$sms" -v f="$mhz" -v k="$kernel" \
    -v y="$cycles" -v c=$((captured - start)) -v r=$((done_at - captured)) 'BEGIN {
      peak = p * s * f * 1e6 / 1e12
      printf "%-16s %9d cycles %7.1f TFLOP/s of %7.1f dense peak: %5.1f%%   (capture %d s, replay %d s)\n",
        k, y, t, peak, 100 * t / peak, c, r }'
  rate[$kernel]="$tflops"
done
if [[ -n "${rate[fp8_gemm_wgmma]:-}" && -n "${rate[bf16_gemm_ws]:-}" ]]; then
  awk -v f="${rate[fp8_gemm_wgmma]}" -v b="${rate[bf16_gemm_ws]}" \
    'BEGIN { printf "fp8_gemm_wgmma / bf16_gemm_ws: %.2f x the TFLOP/s\n", f / b }'
fi
