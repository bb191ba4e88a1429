#!/usr/bin/env python3
"""A stat against a swept parameter, one line per trace, from a sweep's merged table
(sweep.csv or sweep.h5 of `sassim sweep`: run_id, trace, <swept parameter paths>,
kernel_id, kernel_name, cycles, warp_instructions, ipc, ..., one column per counter).

Per run, the stat is summed over the trace's kernels (or taken for one kernel with
--kernel); ipc is recomputed as warp_instructions / cycles; l1_hit_rate, l2_hit_rate and
dram_gbps are averaged over kernels. A '*' in --stat sums the matching counter columns
("gpu.sm[*].warp_cycles.long_scoreboard"). With several swept parameters, each
combination of the others gets its own line.

Example:
  scripts/plot_sweep.py sweep/sweep.csv --param l2.hit_latency_cycles --stat cycles -o l2.png
"""

import argparse
import os
import sys

# The sassim package of this repository (python/sassim), installed or not.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from sassim import SassimError, plotting, sweep  # noqa: E402
from sassim.names import shorten  # noqa: E402


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("table", help="the sweep's merged table (sweep.csv or sweep.h5)")
    parser.add_argument("--param", help="swept parameter for the x axis (default: the only one)")
    parser.add_argument("--stat", default="cycles", help="column to plot (default: cycles)")
    parser.add_argument("--kernel", type=int,
                        help="only this kernel id (default: sum over kernels)")
    parser.add_argument("--logy", action="store_true", help="logarithmic y axis")
    parser.add_argument("-o", "--out", default="sweep.png", help="PNG to write")
    args = parser.parse_args()

    table = sweep.read_sweep_table(args.table)
    axes = sweep.sweep_axes(table)
    param = args.param
    if param is None:
        if len(axes) != 1:
            raise SassimError(
                f"{args.table}: choose the x axis with --param; swept parameters: "
                f"{', '.join(axes) or 'none'}"
            )
        param = axes[0]
    series = sweep.sweep_series(table, param, args.stat, args.kernel)

    plt = plotting.pyplot()
    fig, ax = plt.subplots(figsize=(7.5, 5))
    categorical = not all(sweep.is_numeric(xs) for xs, _ in series.values())
    categories = []
    if categorical:
        for xs, _ in series.values():
            categories += [str(x) for x in xs if str(x) not in categories]
    for label, (xs, ys) in series.items():
        x = [categories.index(str(v)) for v in xs] if categorical else xs
        ax.plot(x, ys, marker="o", label=shorten(label, 60))
    if categorical:
        ax.set_xticks(range(len(categories)))
        ax.set_xticklabels(categories)
    if args.logy:
        ax.set_yscale("log")
    ax.set_xlabel(param)
    what = args.stat if args.kernel is None else f"{args.stat} (kernel {args.kernel})"
    ax.set_ylabel(what)
    ax.set_title(f"{what} vs {param}")
    ax.grid(True, color="#ddd")
    # The legend names what tells the lines apart: the trace, then the other swept
    # parameters (sweep_series labels each line "trace, other=value, ...").
    others = [a for a in axes if a != param]
    ax.legend(fontsize=8, title=", ".join(["trace"] + others))
    fig.tight_layout()
    fig.savefig(args.out, dpi=120)
    print(f"wrote {args.out} ({len(series)} line(s))")


if __name__ == "__main__":
    plotting.run_tool(main)
