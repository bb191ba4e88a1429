#!/usr/bin/env python3
"""Roofline of the kernels of a sassim results file against the simulated GPU's ceilings.

Each kernel is placed by its simulated FLOPs (gpu.sm[<i>].flops.<type>, summed over SMs
and over the chosen types), its DRAM bytes (/kernels dram_bytes) and its time (cycles /
clocks.core_mhz). The ceilings come from the config stored in the file:
  peak DRAM bandwidth = dram.channels * dram.bus_width_bits / 8 * dram.data_rate_mtps * 1e6
  peak FP32 FLOP/s    = num_sms * sm.sub_cores * (32 / sm.units.fp32.initiation_interval_cycles)
                        * 2 * core clock
and one ceiling per tensor operand type (f16, bf16, tf32, fp8, int8, ...) the config has
a dense peak for, from the file's /peaks table (the simulator's own figures, configs/peaks.h:
2 x M x N x K of each sm.tensor_ops form over its initiation interval, per sub-core or per SM,
times SMs and the core clock); files written before /peaks get the FP32 ceiling only.
Kernels without DRAM traffic have no arithmetic intensity; they are drawn at the right
edge (triangles). Kernels without FLOPs cannot be placed and are listed in a note.

Example:
  sassim run TRACE --out results.h5
  scripts/plot_roofline.py results.h5 -o roofline.png
"""

import argparse
import math
import os
import sys

# The sassim package of this repository (python/sassim), installed or not.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from sassim import plotting, read_results, roofline  # noqa: E402
from sassim.names import shorten  # noqa: E402


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("results", help="results file of `sassim run --out` (.h5)")
    parser.add_argument("-o", "--out", default="roofline.png", help="PNG to write")
    parser.add_argument(
        "--flops",
        help="comma-separated FLOP types to count (fp32, fp64, fp16, tensor; default all)",
    )
    parser.add_argument(
        "--tensor",
        help="comma-separated tensor precisions to draw ceilings for (f16, bf16, tf32, fp8, int8, "
        "int4, fp64, binary; default every one the config has a peak for; 'none' for none)",
    )
    parser.add_argument("--title", help="plot title (default: the results file name)")
    args = parser.parse_args()

    results = read_results(args.results)
    types = args.flops.split(",") if args.flops else None
    bandwidth, fp32_peak, _ = roofline.roofline_ceilings(results.config, f"{args.results}:/config")
    wanted = None if args.tensor is None else [] if args.tensor == "none" else args.tensor.split(",")
    tensor = roofline.tensor_ceilings(results, wanted)
    top = max([fp32_peak] + list(tensor.values()))
    points = roofline.roofline_points(results, types)
    placed = points[(points["flops"] > 0) & (points["seconds"] > 0)]
    finite = placed[placed["intensity"] != math.inf]
    no_dram = placed[placed["intensity"] == math.inf]
    unplaced = len(points) - len(placed)

    ridge = top / bandwidth
    lo = min([ridge / 100] + list(finite["intensity"] / 2))
    hi = max([ridge * 100] + list(finite["intensity"] * 2))
    plt = plotting.pyplot()
    fig, ax = plt.subplots(figsize=(7.5, 5.5))
    xs = [lo * (hi / lo) ** (i / 200) for i in range(201)]
    ax.plot(xs, [min(fp32_peak, bandwidth * x) for x in xs], color="black", linewidth=1.5)
    ax.annotate(f"FP32 {fp32_peak / 1e12:.2f} TFLOP/s", (hi, fp32_peak), ha="right", va="bottom",
                fontsize=8)
    # One dashed line per distinct tensor peak; a label at the FP32 line goes below it.
    groups = roofline.group_ceilings(tensor)
    for (precisions, peak), color in zip(groups, plt.cm.tab10.colors[2:]):
        ax.plot(xs, [min(peak, bandwidth * x) for x in xs], color=color, linewidth=1.2,
                linestyle="--")
        below = abs(peak - fp32_peak) <= 0.005 * fp32_peak
        ax.annotate(f"tensor {'/'.join(precisions)} {peak / 1e12:.1f} TFLOP/s", (hi, peak),
                    ha="right", va="top" if below else "bottom", fontsize=8, color=color)
    ax.annotate(f"DRAM {bandwidth / 1e9:.0f} GB/s", (lo * 1.2, bandwidth * lo * 1.4), fontsize=8,
                rotation=0)
    if not finite.empty:
        ax.scatter(finite["intensity"], finite["flop_per_s"], color="tab:blue", zorder=3,
                   label="kernels")
    if not no_dram.empty:
        ax.scatter([hi] * len(no_dram), no_dram["flop_per_s"], marker=">", color="tab:orange",
                   zorder=3, label="no DRAM traffic (at right edge)")
    shown = list(finite.itertuples()) + list(no_dram.itertuples())
    if len(shown) <= 20:
        for p in shown:
            x = hi if p.intensity == math.inf else p.intensity
            ax.annotate(shorten(p.label, 28), (x, p.flop_per_s), fontsize=7,
                        xytext=(4, 4), textcoords="offset points")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(lo, hi * 1.5)
    ymin = min([fp32_peak / 1e6] + list(placed["flop_per_s"] / 2))
    ax.set_ylim(ymin, top * 3)
    ax.set_xlabel("arithmetic intensity (FLOP per DRAM byte)")
    ax.set_ylabel("FLOP/s")
    kinds = ", ".join(types) if types else "all FLOP types"
    ax.set_title(args.title or f"roofline: {os.path.basename(args.results)} ({kinds})")
    if unplaced:
        ax.text(0.01, 0.01, f"{unplaced} kernel(s) without FLOPs not shown", fontsize=8,
                transform=ax.transAxes, color="darkred")
    if shown:
        ax.legend(fontsize=8, loc="upper left")
    ax.grid(True, which="major", color="#ddd")
    fig.tight_layout()
    fig.savefig(args.out, dpi=120)
    print(f"wrote {args.out} ({len(shown)} of {len(points)} kernels placed; peak DRAM "
          f"{bandwidth / 1e9:.1f} GB/s, peak FP32 {fp32_peak / 1e12:.3f} TFLOP/s"
          + "".join(f", tensor {t} {v / 1e12:.1f} TFLOP/s" for t, v in tensor.items()) + ")")


if __name__ == "__main__":
    plotting.run_tool(main)
