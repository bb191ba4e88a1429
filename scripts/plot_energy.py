#!/usr/bin/env python3
"""Energy per kernel from a sassim results file: a stacked bar per kernel of its energy
(or average power) split by component (instructions, tensor, register_file, l1, shared,
l2, interconnect, dram, sm_static, sm_idle, chip_static; docs/ENERGY.md).

Example:
  sassim run TRACE -c h200 --out results.h5
  scripts/plot_energy.py results.h5 -o energy.png
  scripts/plot_energy.py results.h5 --power -o power.png
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from sassim import SassimError, plotting  # noqa: E402
from sassim.energy import power_split, read_energy  # noqa: E402
from sassim.names import shorten, short_kernel_name  # noqa: E402


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("results", help="results file of `sassim run --out` (.h5)")
    parser.add_argument("-o", "--out", default="energy.png", help="PNG to write")
    parser.add_argument("--power", action="store_true",
                        help="average power (W) per component instead of energy (J)")
    parser.add_argument("--kernels", help="comma-separated kernel ids to show (default: all)")
    parser.add_argument("--title", help="plot title (default: the results file name)")
    args = parser.parse_args()

    joules = read_energy(args.results)
    kernels = joules.attrs["kernels"]
    frame = power_split(joules) if args.power else joules
    if args.kernels:
        try:
            wanted = [int(k) for k in args.kernels.split(",")]
        except ValueError as e:
            raise SassimError(
                f"--kernels: expected comma-separated ids, got '{args.kernels}'") from e
        missing = [k for k in wanted if k not in frame.index]
        if missing:
            raise SassimError(f"--kernels: no kernel id {missing[0]} in {args.results}")
        frame = frame.loc[wanted]
        kernels = kernels.loc[wanted]
    frame = frame.dropna()
    if frame.empty:
        raise SassimError(f"{args.results}: no kernel with modelled energy to plot")
    labels = [shorten(f"{i} {short_kernel_name(kernels.loc[i, 'kernel_name'])}", 32)
              for i in frame.index]
    scale, unit = (1.0, "W") if args.power else (1e3, "mJ")

    plt = plotting.pyplot()
    fig, ax = plt.subplots(figsize=(max(6.0, 0.45 * len(labels) + 3), 5.5))
    bottom = [0.0] * len(labels)
    colors = plt.get_cmap("tab20").colors
    for i, part in enumerate(frame.columns):
        values = (frame[part] * scale).to_numpy()
        ax.bar(range(len(labels)), values, bottom=bottom, label=part,
               color=colors[i % len(colors)])
        bottom = [b + v for b, v in zip(bottom, values)]
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels, rotation=60, ha="right", fontsize=8)
    ax.set_ylabel(f"average power ({unit})" if args.power else f"energy ({unit})")
    ax.set_title(args.title or f"{'Power' if args.power else 'Energy'}: "
                 f"{os.path.basename(args.results)}")
    ax.legend(title="component", fontsize=8, bbox_to_anchor=(1.01, 1), loc="upper left")
    fig.tight_layout()
    fig.savefig(args.out, dpi=120)
    print(f"wrote {args.out} ({len(labels)} kernels, {len(frame.columns)} components)")


if __name__ == "__main__":
    plotting.run_tool(main)
