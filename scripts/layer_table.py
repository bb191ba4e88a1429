#!/usr/bin/env python3
"""The markdown table docs/LLM.md shows for a `sassim workload` layer.

Reads the capture's log (the lines `  N step kernel  C CTAs  W warp insts ...` that
`sassim workload` prints) and `sassim run --format json` of its folder; prints one row per
launch (step, kernel, CTAs, warp instructions, cycles, DRAM MiB, the limit that binds), the
layer's total, and the workload's figures per token.

  scripts/layer_table.py CAPTURE_LOG RUN_JSON
"""
import json
import re
import sys

LAUNCH = re.compile(r"^\s*(\d+) (\S+)\s+(\S+)\s+(\d+) CTAs\s+(\d+) warp insts")


def fail(message):
    print(f"layer_table: {message}", file=sys.stderr)
    sys.exit(1)


def main(argv):
    if len(argv) != 3:
        fail("usage: layer_table.py CAPTURE_LOG RUN_JSON")
    with open(argv[1], encoding="utf-8") as f:
        launches = [m.groups() for m in map(LAUNCH.match, f) if m]
    with open(argv[2], encoding="utf-8") as f:
        run = json.load(f)
    kernels = run["kernels"]
    if len(launches) != len(kernels):
        fail(f"{argv[1]} lists {len(launches)} launches, {argv[2]} {len(kernels)} kernels")
    print("| launch | kernel | CTAs | warp instructions | cycles | DRAM MiB | bound by |")
    print("|---|---|---:|---:|---:|---:|---|")
    for (index, step, kernel, ctas, insts), k in zip(launches, kernels):
        if k["name"] != kernel or k["warp_instructions"] != int(insts):
            fail(f"launch {index}: the log says {kernel} ({insts}), the run {k['name']} "
                 f"({k['warp_instructions']})")
        print(f"| {index} {step} | {kernel} | {int(ctas):,} | {int(insts):,} | "
              f"{k['cycles']:,} | {k['dram_bytes'] / 2**20:,.1f} | {k['bound_by']} |")
    total = run["total"]
    print(f"| **layer** | | | **{total['warp_instructions']:,}** | **{total['cycles']:,}** | "
          f"**{total['dram_bytes'] / 2**20:,.1f}** | |")
    w = run.get("workload")
    if w is None:
        fail(f"{argv[2]}: no workload object (the folder has no workload.txt)")
    by_kernel = {}
    for k in kernels:
        by_kernel[k["name"]] = by_kernel.get(k["name"], 0) + k["cycles"]
    print()
    print(f"- {w['tokens']:,} tokens ({w['phase']}, batch {w['batch']}, context {w['context']}):"
          f" the layer {w['layer_seconds'] * 1e6:,.1f} us, {w['layer_tokens_per_s']:,.0f} tokens/s;"
          f" {w['dram_bytes_per_token'] / 1024:,.1f} KiB of DRAM per token.")
    print(f"- {w['model_layers']} such layers: {w['model_seconds'] * 1e3:,.2f} ms, "
          f"{w['model_tokens_per_s']:,.0f} tokens/s (the layers alone).")
    cycles = sum(by_kernel.values())
    parts = ", ".join(f"{name} {100 * c / cycles:.1f}%"
                      for name, c in sorted(by_kernel.items(), key=lambda x: -x[1]))
    print(f"- Share of the layer's cycles by kernel: {parts}.")


if __name__ == "__main__":
    main(sys.argv)
