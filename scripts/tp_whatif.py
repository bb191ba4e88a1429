#!/usr/bin/env python3
"""docs/MULTIGPU.md's what-if: the decode latency of a tensor-parallel Llama 3 8B layer on
an HGX H200 (`h200x8`) against the number of GPUs and the NVLink bandwidth.

  scripts/tp_whatif.py run [--sassim BIN] [--jobs N]   capture the layers (--tp 1, 2, 4, 8),
                                                       replay each on the system at every
                                                       NVLink bandwidth, write
                                                       docs/multigpu/tp_whatif.csv, the plot
                                                       and the doc section
  scripts/tp_whatif.py doc [--check]                   the section from the table (--check:
                                                       exit 1 when the document differs)

`run` captures into build/tp_whatif/ and takes about a quarter of an hour on two cores.
"""

import argparse
import csv
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import doc_section  # scripts/doc_section.py, beside this script

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
DOCS = os.path.join(ROOT, "docs", "multigpu")
TABLE = os.path.join(DOCS, "tp_whatif.csv")
PLOT = os.path.join(DOCS, "tp_whatif.png")
DOC = os.path.join(ROOT, "docs", "MULTIGPU.md")
BEGIN = "<!-- tp_whatif.py: begin -->"
END = "<!-- tp_whatif.py: end -->"
SYSTEM = "h200x8"
BATCHES = [1, 64]                # decode sequences, context 4096
TPS = [1, 2, 4, 8]
LINK_GBPS = [12.5, 25.0, 50.0]   # NVLink 4 per link and direction; the preset's is 25
PRESET_LINK_GBPS = 25.0
FIELDS = ["batch", "tp", "link_gb_per_s", "layer_us", "kernels_us", "collectives_us",
          "allreduce_bytes", "allreduce_us", "algorithm", "protocol", "bound",
          "model_tokens_per_s"]


def run_cmd(cmd):
    print("+", " ".join(cmd), file=sys.stderr, flush=True)
    return subprocess.run(cmd, check=True, cwd=ROOT, stdout=subprocess.PIPE, text=True).stdout


def capture(sassim, work, batch, tp):
    """The trace folder of one layer: a ranks.g folder (tp 1: one rank)."""
    folder = os.path.join(work, f"b{batch}-tp{tp}")
    if os.path.exists(os.path.join(folder, "ranks.g")):
        return folder
    if tp == 1:
        run_cmd([sassim, "workload", "dense-layer", "--batch", str(batch), "-q",
                 "-o", os.path.join(folder, "rank-0")])
        with open(os.path.join(folder, "ranks.g"), "w") as f:
            f.write("# one GPU\nrank-0\n")
    else:
        run_cmd([sassim, "workload", "dense-layer", "--batch", str(batch), "--tp", str(tp),
                 "-q", "-o", folder])
    return folder


def replay(sassim, folder, batch, tp, link):
    out = json.loads(run_cmd([sassim, "run", folder, "--system", SYSTEM, "--format", "json",
                              "-t", "1", "--system-set",
                              f"nvlink.gb_per_s_per_link={link:g}"]))
    player = out["players"][0]
    ars = out["collectives"]
    return {"batch": batch, "tp": tp, "link_gb_per_s": link,
            "layer_us": round(out["workload"]["layer_us"], 2),
            "kernels_us": round(player["kernels_us"], 2),
            "collectives_us": round(player["collectives_us"], 2),
            "allreduce_bytes": ars[0]["bytes"] if ars else 0,
            "allreduce_us": round(ars[0]["time_us"], 2) if ars else 0,
            "algorithm": ars[0]["algorithm"] if ars else "-",
            "protocol": ars[0]["protocol"] if ars else "-",
            "bound": out["bound"],
            "model_tokens_per_s": round(out["workload"]["model_tokens_per_s"], 1)}


def run(args):
    work = os.path.join(ROOT, "build", "tp_whatif")
    os.makedirs(work, exist_ok=True)
    folders = {(b, tp): capture(args.sassim, work, b, tp) for b in BATCHES for tp in TPS}
    # One GPU has no collective: it runs at the preset's bandwidth alone.
    points = [(b, tp, link) for b in BATCHES for tp in TPS
              for link in (LINK_GBPS if tp > 1 else [PRESET_LINK_GBPS])]
    with ThreadPoolExecutor(args.jobs) as pool:
        rows = list(pool.map(lambda p: replay(args.sassim, folders[p[:2]], *p), points))
    os.makedirs(DOCS, exist_ok=True)
    with open(TABLE, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    plot(rows)
    return doc(check=False)


def read_rows():
    with open(TABLE, newline="") as f:
        return list(csv.DictReader(f))


def plot(rows):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(BATCHES), figsize=(9, 3.8))
    for ax, batch in zip(axes, BATCHES):
        for link in LINK_GBPS:
            pts = sorted((int(r["tp"]), float(r["layer_us"])) for r in rows
                         if int(r["batch"]) == batch and
                         (float(r["link_gb_per_s"]) == link or int(r["tp"]) == 1))
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o",
                    label=f"NVLink {link * 18 * 2:g} GB/s")
        ax.set_xscale("log", base=2)
        ax.set_xticks(TPS, [str(t) for t in TPS])
        ax.set_xlabel("tensor-parallel GPUs")
        ax.set_ylabel("layer time (us)")
        ax.set_title(f"Llama 3 8B decode, batch {batch}, context 4096")
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(PLOT, dpi=100)


def section():
    rows = read_rows()
    lines = [BEGIN,
             "| batch | GPUs | NVLink per GPU (GB/s) | layer (us) | kernels (us) | all-reduces "
             "(us) | one all-reduce | algorithm | bound by | 32 layers (tokens/s) |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        link = float(r["link_gb_per_s"]) * 18 * 2
        ar = (f"{int(r['allreduce_bytes']) // 1024} KiB, {float(r['allreduce_us']):.1f} us"
              if int(r["tp"]) > 1 else "-")
        lines.append(
            f"| {r['batch']} | {r['tp']} | {link:g} | {float(r['layer_us']):.1f} | "
            f"{float(r['kernels_us']):.1f} | {float(r['collectives_us']):.1f} | {ar} | "
            f"{r['algorithm']}/{r['protocol']} | {r['bound']} | "
            f"{float(r['model_tokens_per_s']):,.0f} |")
    lines.append("")
    lines += findings(rows)
    lines.append(END)
    return "\n".join(lines) + "\n"


def findings(rows):
    """One line a batch: speed-up over one GPU, the all-reduces' share of the step at the
    preset's bandwidth, and the largest change of the layer time across the bandwidths."""
    out = []
    for batch in BATCHES:
        mine = [r for r in rows if int(r["batch"]) == batch]
        one = next(float(r["layer_us"]) for r in mine if int(r["tp"]) == 1)
        preset = {int(r["tp"]): r for r in mine
                  if float(r["link_gb_per_s"]) == PRESET_LINK_GBPS and int(r["tp"]) > 1}
        ups = ", ".join(f"{one / float(r['layer_us']):.2f}x" for _, r in sorted(preset.items()))
        shares = ", ".join(f"{100 * float(r['collectives_us']) / float(r['layer_us']):.0f}%"
                           for _, r in sorted(preset.items()))
        swing = max(abs(float(r["layer_us"]) / float(preset[int(r["tp"])]["layer_us"]) - 1)
                    for r in mine if int(r["tp"]) > 1)
        out.append(f"- Batch {batch}: {', '.join(str(t) for t in sorted(preset))} GPUs run the "
                   f"layer {ups} as fast as one; the all-reduces take {shares} of the step; "
                   f"half or twice the NVLink bandwidth moves the layer time by at most "
                   f"{100 * swing:.1f}%.")
    return out


def doc(check):
    return doc_section.write_or_check(DOC, BEGIN, END, section(), check, "the what-if table")


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run")
    r.add_argument("--sassim", default=os.path.join(ROOT, "build", "sim", "cli", "sassim"))
    r.add_argument("--jobs", type=int, default=2)
    d = sub.add_parser("doc")
    d.add_argument("--check", action="store_true")
    args = parser.parse_args()
    sys.exit(run(args) if args.command == "run" else doc(args.check))


if __name__ == "__main__":
    main()
