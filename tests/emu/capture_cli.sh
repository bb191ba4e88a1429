#!/usr/bin/env bash
# `sassim capture` end to end: a checked capture replays; bad input gives a clear error.
# Usage: capture_cli.sh SASSIM_BINARY REPO_ROOT
set -uo pipefail
sassim="$1"
root="$2"

# shellcheck source=SCRIPTDIR/../expect.sh
source "$(dirname "${BASH_SOURCE[0]}")/../expect.sh"
make_work_dir

listings="$root/kernels/sass"
# 2048 elements: 64 warps of 16 instructions each (the sm_80 listing has no branch).
expect 0 "2048 of 2048 values match" -- \
  "$sassim" capture vectoradd 2048 --listing "$listings/sm_80" -o "$work/vadd" --check
expect 0 "1024 warp instructions" -- "$sassim" trace info "$work/vadd"
expect 0 "total \(1 kernels\)" -- "$sassim" run -q "$work/vadd" --config a100
expect 0 "values match" -- \
  "$sassim" capture reduce_sum 8192 4 --listing "$listings/sm_90/reduce_sum.sass" --check
expect 1 "unknown suite kernel 'nosuch'; the kernels: vectoradd, saxpy, .*sgemm_tiled.*ubench_mem_lat" -- "$sassim" capture nosuch
expect 1 "sgemm_tiled takes M \\(a square problem\\) or M N K: found 2 values" -- "$sassim" capture sgemm_tiled 64 64
expect 0 "1 CTAs, 15040 warp instructions.*; no trace written \\(-o FOLDER writes one\\)" -- "$sassim" capture sgemm_tiled 64
expect 1 "no/such.*not a listing" -- "$sassim" capture vectoradd 256 --listing "$root/no/such"
expect 1 "no function saxpy" -- \
  "$sassim" capture saxpy 256 --listing "$listings/sm_80/vectoradd.sass"
expect 0 "16384 of 16384 values match" -- \
  "$sassim" capture bf16_gemm_wgmma 128 128 128 --listing "$listings/sm_90a" --check
expect 0 "65536 of 65536 values match" -- \
  "$sassim" capture fp8_gemm_wgmma 256 256 256 --listing "$listings/sm_90a" --check

# zstd by default, text with --plain: the same lines, replayed to the same cycles and stats
# (the host-speed column and lines aside).
for format in zst plain; do
  flag=$([[ $format == plain ]] && echo --plain)
  # shellcheck disable=SC2086
  expect 0 "8160 warp instructions" -- \
    "$sassim" capture sgemm_tiled 64 64 32 --listing "$listings/sm_80" -o "$work/$format" -q $flag
  "$sassim" run -q "$work/$format" --config a100 2>&1 | grep -v "^simulated\|^peak memory" |
    sed -E 's/ +[0-9]+$//' >"$work/$format.txt"
done
expect 0 "^kernel-1.traceg.zst$" -- cat "$work/zst/kernelslist.g"
expect 0 "^kernel-1.traceg$" -- cat "$work/plain/kernelslist.g"
expect 0 "total \(1 kernels\) +18801 " -- cat "$work/zst.txt"
expect 0 "^$" -- diff "$work/zst.txt" "$work/plain.txt"
if command -v zstd >/dev/null; then
  expect 0 "^$" -- bash -c "zstd -dc '$work/zst/kernel-1.traceg.zst' | cmp - '$work/plain/kernel-1.traceg'"
fi
head -c 3000 "$work/zst/kernel-1.traceg.zst" >"$work/zst/cut.traceg.zst"
echo cut.traceg.zst >"$work/zst/kernelslist.g"
expect 1 "cut.traceg.zst: zstd data ends early \(truncated .zst file" -- \
  "$sassim" run -q "$work/zst" --config a100

# An instruction the executor does not implement names the file, line, PC and opcode.
mkdir -p "$work/sm_80"
sed 's/FADD R9, R4, R3 ;/DMNMX R8, R4, R2 ;/' "$listings/sm_80/vectoradd.sass" \
  >"$work/sm_80/vectoradd.sass"
expect 1 "vectoradd.sass:[0-9]+: PC 0x00d0: DMNMX: unsupported opcode DMNMX" -- \
  "$sassim" capture vectoradd 256 --listing "$work/sm_80"

# A relative --listing not found from the current directory is found in the data home
# ($SASSIM_HOME); one found from the current directory wins (its DMNMX is refused); when
# neither exists the error names both places.
expect 0 "from $root/kernels/sass/sm_90/vectoradd.sass: 1 CTAs" -- \
  bash -c "cd '$work' && SASSIM_HOME='$root' '$sassim' capture vectoradd 256 --listing kernels/sass/sm_90 --check"
expect 0 "from $root/kernels/sass/sm_80/saxpy.sass" -- \
  bash -c "cd '$work' && SASSIM_HOME='$root' '$sassim' capture saxpy 256 --listing kernels/sass/sm_80/saxpy.sass"
expect 1 "vectoradd.sass:[0-9]+: PC 0x00d0: DMNMX" -- \
  bash -c "cd '$work' && SASSIM_HOME='$root' '$sassim' capture vectoradd 256 --listing sm_80"
expect 1 "--listing kernels/sass/sm_91: found neither kernels/sass/sm_91 \\(from the current directory, $work\\) nor $root/kernels/sass/sm_91 \\(from the data home" -- \
  bash -c "cd '$work' && SASSIM_HOME='$root' '$sassim' capture vectoradd 256 --listing kernels/sass/sm_91"

# A Hopper form the executor does not implement is named the same way.
mkdir -p "$work/sm_90a"
sed 's/UTMALDG.2D \[UR16\]/UTMALDG.3D [UR16]/' "$listings/sm_90a/bf16_gemm_wgmma.sass" \
  >"$work/sm_90a/bf16_gemm_wgmma.sass"
expect 1 "bf16_gemm_wgmma.sass:[0-9]+: PC 0x02d0: UTMALDG.3D: unsupported form UTMALDG.3D" -- \
  "$sassim" capture bf16_gemm_wgmma 128 128 128 --listing "$work/sm_90a"

finish
