#!/usr/bin/env bash
# scripts/decode-attention-bandwidth.sh on a one-CTA problem: it captures, replays and
# reports the K/V bytes (512 tokens x 1 KV head x 128 x 2 bytes x K and V = 0.25 MiB),
# for decode_attention and (KERNEL) decode_attention_tc; bad values are refused before
# any work.
# Usage: decode_bandwidth_cli.sh SASSIM_BINARY REPO_ROOT
set -uo pipefail
sassim="$1"
root="$2"

# shellcheck source=SCRIPTDIR/../expect.sh
source "$(dirname "${BASH_SOURCE[0]}")/../expect.sh"

script="$root/scripts/decode-attention-bandwidth.sh"
expect 0 "decode_attention 1 x 512 \(KV heads 1\) on h200: 1 CTAs, [0-9]+ warp instructions" -- \
  env SASSIM="$sassim" "$script" 1 512 1
expect 0 "K/V read: 0\.2 MiB.*" -- env SASSIM="$sassim" "$script" 1 512 1
expect 0 "K/V bytes / time: [0-9]+ GB/s = [0-9.]+% of the sustained 4267 GB/s" -- \
  env SASSIM="$sassim" "$script" 1 512 1
expect 0 "decode_attention_tc 1 x 512 \(KV heads 1\) on h200: 1 CTAs, [0-9]+ warp instructions" -- \
  env SASSIM="$sassim" KERNEL=decode_attention_tc "$script" 1 512 1
expect 1 "KERNEL: expected decode_attention or decode_attention_tc, found 'rmsnorm'" -- \
  env SASSIM="$sassim" KERNEL=rmsnorm "$script" 1 512 1
expect 1 "expected positive integers, found '0'" -- env SASSIM="$sassim" "$script" 0
expect 1 "no sassim binary at /no/such" -- env SASSIM=/no/such "$script" 1 512 1
finish
