#!/usr/bin/env python3
"""CPI stack per kernel from a sassim results file: a stacked bar per kernel of warp
cycles per warp instruction, split by warp state (selected, not_selected, wait,
long_scoreboard, ..., whatever gpu.sm[<i>].warp_cycles.<state> counters the file holds),
summed over SMs and divided by the kernel's warp instructions.

Example:
  sassim run TRACE --out results.h5
  scripts/plot_cpi_stack.py results.h5 -o cpi_stack.png
"""

import argparse
import os
import sys

# The sassim package of this repository (python/sassim), installed or not.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from sassim import SassimError, counters, plotting, read_results  # noqa: E402
from sassim.names import kernel_labels, shorten  # noqa: E402


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("results", help="results file of `sassim run --out` (.h5)")
    parser.add_argument("-o", "--out", default="cpi_stack.png", help="PNG to write")
    parser.add_argument("--kernels", help="comma-separated kernel ids to show (default: all)")
    parser.add_argument("--title", help="plot title (default: the results file name)")
    args = parser.parse_args()

    results = read_results(args.results)
    stack = counters.cpi_stack(results)
    labels = kernel_labels(results.kernels)
    keep = stack.notna().all(axis=1).to_numpy()
    if args.kernels:
        try:
            wanted = {int(k) for k in args.kernels.split(",")}
        except ValueError as e:
            raise SassimError(
                f"--kernels: expected comma-separated ids, got '{args.kernels}'"
            ) from e
        ids = results.kernels["kernel_id"].to_numpy()
        missing = wanted - set(int(i) for i in ids)
        if missing:
            raise SassimError(f"--kernels: no kernel id {sorted(missing)[0]} in {args.results}")
        keep &= [int(i) in wanted for i in ids]
    if not keep.any():
        raise SassimError(f"{args.results}: no kernel with warp instructions to plot")
    stack = stack[keep]
    labels = [shorten(label, 32) for label, k in zip(labels, keep) if k]

    plt = plotting.pyplot()
    fig, ax = plt.subplots(figsize=(max(6.0, 0.45 * len(labels) + 3), 5.5))
    bottom = [0.0] * len(labels)
    colors = plt.get_cmap("tab20").colors
    for i, state in enumerate(stack.columns):
        values = stack[state].to_numpy()
        ax.bar(range(len(labels)), values, bottom=bottom, label=state,
               color=colors[i % len(colors)])
        bottom = [b + v for b, v in zip(bottom, values)]
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels, rotation=60, ha="right", fontsize=8)
    ax.set_ylabel("warp cycles per warp instruction")
    ax.set_title(args.title or f"CPI stack: {os.path.basename(args.results)}")
    ax.legend(title="warp state", fontsize=8, bbox_to_anchor=(1.01, 1), loc="upper left")
    fig.tight_layout()
    fig.savefig(args.out, dpi=120)
    print(f"wrote {args.out} ({len(labels)} kernels, {len(stack.columns)} warp states)")


if __name__ == "__main__":
    plotting.run_tool(main)
