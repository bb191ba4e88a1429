#!/usr/bin/env bash
# scripts/count-warp-insts.py on a small listing (tests/kernels/data/listings), its
# errors, and on the committed microbenchmark listings.
#   warp_count_test.sh ROOT
root="${1:?usage: warp_count_test.sh ROOT}"
# shellcheck source=../expect.sh
source "$root/tests/expect.sh"
count="$root/scripts/count-warp-insts.py"
listings="$root/tests/kernels/data/listings"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# A counted loop (10 trips x 3), a predicated exit, a loop by rule (5 trips x 2):
# 1 + 30 + 1 + 1 + 10 + 1 = 44 per warp; warps leaving at the exit: 1 + 30 + 1 = 32.
cat >"$work/paths.txt" <<'PATHS'
# comment
sm_00 k 2 #3=4
sm_00 k 3 0x0040=taken  # the same exit by address
PATHS
expect 0 "sm_00 k: 2 warps x 44 = 88" -- "$count" --listings "$listings" --paths "$work/paths.txt"
expect 0 "TOTAL sm_00 k 184" -- "$count" --listings "$listings" --paths "$work/paths.txt"

echo "sm_00 k 1" >"$work/bad.txt"
expect 1 "bad.txt:1: backward branch at 0x0070 needs a rule" -- \
  "$count" --listings "$listings" --paths "$work/bad.txt"
echo "sm_00 k 1 #3=4 0x0050=taken" >"$work/bad.txt"
expect 1 "rules for 0x0050 which the path never reaches" -- \
  "$count" --listings "$listings" --paths "$work/bad.txt"
echo "sm_00 k 1 #4=1" >"$work/bad.txt"
expect 1 "#4: the listing has 3 conditional branches" -- \
  "$count" --listings "$listings" --paths "$work/bad.txt"
echo "sm_00 k x" >"$work/bad.txt"
expect 1 "bad.txt:1: expected ARCH KERNEL WARPS RULE" -- \
  "$count" --listings "$listings" --paths "$work/bad.txt"

# A committed listing: the DRAM bandwidth kernel's grid-stride loop (108 and 80 CTAs of
# 1024 threads over 5,242,880 and 786,432 float4s) gives the A100 and QV100 records'
# counts exactly, as its capture does (docs/UBENCH.md).
cat >"$work/mem_bw.txt" <<'PATHS'
sm_70 ubench_mem_bw 1024 #2=8
sm_70 ubench_mem_bw 1536 #2=9
sm_80 ubench_mem_bw 2048 #2=46
sm_80 ubench_mem_bw 1408 #2=47
PATHS
expect 0 "TOTAL sm_80 ubench_mem_bw 5482752" -- "$count" --paths "$work/mem_bw.txt" ubench_mem_bw
expect 0 "TOTAL sm_70 ubench_mem_bw 875008" -- "$count" --paths "$work/mem_bw.txt" ubench_mem_bw
finish
