#!/usr/bin/env bash
# The DRAM bandwidth a flash-decoding split kernel (kernels/decode_attention.h, or
# decode_attention_tc.h: the same problem on the tensor cores) reaches in the timing
# model: captures it from its committed sm_90 listing at BATCH sequences of up to CONTEXT
# tokens, replays the trace on a preset and prints the K/V bytes it must read, the
# simulated time, and bytes / time against the preset's sustained DRAM bandwidth.
#
# Usage: scripts/decode-attention-bandwidth.sh [BATCH [CONTEXT [KV_HEADS]]]
#   environment: KERNEL (decode_attention, the default, or decode_attention_tc),
#   SASSIM (default build/sim/cli/sassim), PRESET (default h200),
#   SUSTAINED_GBPS (default 4267: docs/VALIDATION.md, h200 streaming reads at 88.9% of
#   4800 GB/s), WORK (default: a temporary folder, removed at the end).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
sassim="${SASSIM:-$root/build/sim/cli/sassim}"
preset="${PRESET:-h200}"
sustained="${SUSTAINED_GBPS:-4267}"
kernel="${KERNEL:-decode_attention}"
case "$kernel" in decode_attention | decode_attention_tc) ;;
  *) echo "decode-attention-bandwidth: KERNEL: expected decode_attention or decode_attention_tc, found '$kernel'" >&2; exit 1 ;;
esac
batch="${1:-8}" context="${2:-4096}" kv_heads="${3:-8}"
for v in "$batch" "$context" "$kv_heads" "$sustained"; do
  [[ "$v" =~ ^[1-9][0-9]*$ ]] || { echo "decode-attention-bandwidth: expected positive integers, found '$v'" >&2; exit 1; }
done
[[ -x "$sassim" ]] || { echo "decode-attention-bandwidth: no sassim binary at $sassim (build first or set SASSIM)" >&2; exit 1; }
listing="$root/kernels/sass/sm_90/$kernel.sass"
work="${WORK:-$(mktemp -d)}"
[[ -n "${WORK:-}" ]] || trap 'rm -rf "$work"' EXIT

"$sassim" capture "$kernel" "$batch" "$context" "$kv_heads" --listing "$listing" \
  -o "$work/trace" --check -q
"$sassim" run "$work/trace" -c "$preset" --sass "$listing" --format json >"$work/run.json" \
  2>"$work/run.log"
mhz="$(sed -n 's/^simulating .*, \([0-9.]*\) MHz)$/\1/p' "$work/run.log")"
[[ -n "$mhz" ]] || { echo "decode-attention-bandwidth: no clock in the run's log" >&2; cat "$work/run.log" >&2; exit 1; }
/usr/bin/python3 - "$work/run.json" "$batch" "$context" "$kv_heads" "$mhz" "$sustained" "$preset" "$kernel" <<'PY'
import json, sys
path, batch, context, kv_heads, mhz, sustained, preset, name = sys.argv[1:]
batch, context, kv_heads, mhz, sustained = int(batch), int(context), int(kv_heads), float(mhz), float(sustained)
kernel = json.load(open(path))["kernels"][0]
# Sequence b's context (kernels/decode_attention.cc, context_lens); K and V, BF16, 128 dims.
tokens = sum(context - (b * 389) % (context // 4 + 1) for b in range(batch))
kv_bytes = tokens * kv_heads * 128 * 2 * 2
seconds = kernel["cycles"] / (mhz * 1e6)
achieved = kv_bytes / seconds / 1e9
print(f"{name} {batch} x {context} (KV heads {kv_heads}) on {preset}: "
      f"{kernel['grid_x'] * kernel['grid_y'] * kernel['grid_z']} CTAs, "
      f"{kernel['warp_instructions']} warp instructions, {kernel['cycles']} cycles ({seconds * 1e6:.1f} us)")
print(f"K/V read: {kv_bytes / 2**20:.1f} MiB; DRAM bytes moved: {kernel['dram_bytes'] / 2**20:.1f} MiB")
print(f"K/V bytes / time: {achieved:.0f} GB/s = {100 * achieved / sustained:.1f}% of the sustained "
      f"{sustained:.0f} GB/s (model's DRAM rate over the run: {kernel['dram_gbps']:.0f} GB/s)")
PY
