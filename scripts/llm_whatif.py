#!/usr/bin/env python3
"""docs/LLM.md's what-if on h200: Llama 3 8B decode against DRAM bandwidth and L2 size,
and its prefill against the tensor cores' BF16 throughput.

  scripts/llm_whatif.py run [--sassim BIN] [--jobs N] [--only decode|prefill]
                                                        capture the layers, run the sweeps
                                                        (docs/llm/*.txtpb; --only: one of
                                                        them), write the tables and plots of
                                                        docs/llm/, then the doc
  scripts/llm_whatif.py plot                            the plots of docs/llm/ from the tables
  scripts/llm_whatif.py doc [--check]                   docs/LLM.md's section from the tables
                                                        (--check: exit 1 when it differs)

`run` captures into build/whatif/ (the folders the specs name) and sweeps into
build/whatif/out-*; it takes about half an hour of CPU on two cores.
"""

import argparse
import csv
import os
import subprocess
import sys
from collections import defaultdict

import doc_section  # scripts/doc_section.py, beside this script

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
DOCS = os.path.join(ROOT, "docs", "llm")
LLM_MD = os.path.join(ROOT, "docs", "LLM.md")
BEGIN = "<!-- llm_whatif.py: begin -->"
END = "<!-- llm_whatif.py: end -->"

# The layers: (trace folder under build/whatif, `sassim workload dense-layer` options).
LAYERS = {
    "decode-b1": ["--batch", "1", "--context", "4096"],
    # The prefill's GEMMs on the warp-specialised kernel (bf16_gemm_ws), built as a
    # serving engine's are, so that the tensor cores' throughput shows.
    "prefill-512-ws": ["--phase", "prefill", "--context", "512", "--gemm", "ws"],
}
SPECS = {"decode": "decode_whatif.txtpb", "prefill": "prefill_whatif.txtpb"}
DRAM = "dram.data_rate_mtps"
L2 = "l2.size_bytes"
TENSOR = "sm.tensor_ops[2].initiation_interval_cycles_per_n"
H200_BUS_BYTES = 192 * 32 // 8  # 192 channels of 32 bits (configs/presets/h200.txtpb)
CORE_MHZ = 1980.0  # h200's SM clock (configs/presets/h200.txtpb)
MODEL_LAYERS = 32  # Llama 3 8B's num_hidden_layers


def run_cmd(cmd):
    print("+", " ".join(cmd), file=sys.stderr, flush=True)
    subprocess.run(cmd, check=True, cwd=ROOT)


# The decode layer's launches whose DRAM rate the tables follow (docs/LLM.md's launch list).
GEMV_LAUNCHES = {"14": "gate_up_tbps", "17": "down_tbps"}


def summarise(table, params, gemvs=None):
    """One row per run: the swept values, the layer's cycles, DRAM bytes and energy, and
    the DRAM rate (TB/s) of each launch in `gemvs` (kernel id -> column)."""
    gemvs = gemvs or {}
    runs = defaultdict(lambda: dict({"cycles": 0, "dram_bytes": 0.0, "energy_j": 0.0},
                                    **{c: 0.0 for c in gemvs.values()}))
    with open(table, newline="") as f:
        for row in csv.DictReader(f):
            key = (os.path.basename(row["trace"]),) + tuple(row[p] for p in params)
            r = runs[key]
            r["cycles"] += int(row["cycles"])
            r["dram_bytes"] += float(row["dram_bytes"])
            r["energy_j"] += float(row.get("energy_j", 0) or 0)
            if row["kernel_id"] in gemvs:
                seconds = int(row["cycles"]) / (CORE_MHZ * 1e6)
                r[gemvs[row["kernel_id"]]] = round(float(row["dram_bytes"]) / seconds / 1e12, 3)
    return [dict(zip(("layer",) + tuple(params), k), **v) for k, v in sorted(runs.items())]


def write_table(path, rows):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()), lineterminator="\n")
        w.writeheader()
        w.writerows(rows)


def read_table(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def tokens_of(layer):
    return {"decode-b1": 1, "prefill-512-ws": 512}[layer]


def layer_us(row):
    return int(row["cycles"]) / CORE_MHZ


def run(args):
    work = os.path.join(ROOT, "build", "whatif")
    os.makedirs(work, exist_ok=True)
    for name, options in LAYERS.items():
        if args.only and not name.startswith(args.only):
            continue
        folder = os.path.join(work, name)
        if not os.path.exists(os.path.join(folder, "kernelslist.g")):
            run_cmd([args.sassim, "workload", "dense-layer", *options, "-q", "-o", folder])
    for kind, spec in SPECS.items():
        if args.only and kind != args.only:
            continue
        out = os.path.join(work, f"out-{kind}")
        run_cmd([args.sassim, "sweep", os.path.join(DOCS, spec), "--out", out,
                 "--jobs", str(args.jobs), "--no-progress"])
        params = [DRAM, L2] if kind == "decode" else [TENSOR]
        write_table(os.path.join(DOCS, f"whatif_{kind}.csv"),
                    summarise(os.path.join(out, "sweep.csv"), params,
                              GEMV_LAUNCHES if kind == "decode" else None))
    plot()
    doc(check=False)


def plot():
    """docs/llm/whatif_decode.png and whatif_prefill.png from the tables."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = read_table(os.path.join(DOCS, "whatif_decode.csv"))
    fig, ax = plt.subplots(figsize=(5.5, 4))
    for l2 in sorted({int(r[L2]) for r in rows}):
        pts = sorted((float(r[DRAM]) * H200_BUS_BYTES / 1e6, model_tokens_s(r))
                     for r in rows if int(r[L2]) == l2)
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o",
                label=f"L2 {l2 / 2**20:.0f} MiB")
    ax.set_title("Llama 3 8B decode, batch 1, context 4096")
    ax.set_xlabel("DRAM bandwidth (TB/s)")
    ax.set_ylabel("tokens/s (32 layers)")
    ax.set_ylim(bottom=0)
    ax.grid(True, alpha=0.3)
    ax.legend(title="h200 with")
    fig.tight_layout()
    fig.savefig(os.path.join(DOCS, "whatif_decode.png"), dpi=110)

    rows = read_table(os.path.join(DOCS, "whatif_prefill.csv"))
    fig, ax = plt.subplots(figsize=(5, 4))
    pts = sorted((peak_tflops(r), model_tokens_s(r)) for r in rows)
    ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o")
    ax.set_title("Llama 3 8B prefill of 512 tokens")
    ax.set_xlabel("BF16 wgmma peak (TFLOP/s)")
    ax.set_ylabel("prompt tokens/s (32 layers)")
    ax.set_ylim(bottom=0)
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    fig.savefig(os.path.join(DOCS, "whatif_prefill.png"), dpi=110)


def model_tokens_s(row):
    return tokens_of(row["layer"]) / (MODEL_LAYERS * layer_us(row) * 1e-6)


def peak_tflops(row):
    # A 64xNx16 BF16 wgmma is 2048 N FLOPs every max(4, ceil(per_n x N)) cycles on each
    # of 132 SMs; the suite's GEMM uses N = 128.
    per_n = float(row[TENSOR])
    interval = max(4, -(-per_n * 128 // 1))
    return 2048 * 128 / interval * 132 * CORE_MHZ * 1e6 / 1e12


def decode_section(rows):
    dram = sorted({float(r[DRAM]) for r in rows})
    l2s = sorted({int(r[L2]) for r in rows})
    cell = {(float(r[DRAM]), int(r[L2])): r for r in rows}
    out = ["Decode, batch 1, context 4096: tokens/s of 32 layers (one layer's time in us;",
           "-: not run)\n",
           "| DRAM | " + " | ".join(f"L2 {l / 2**20:.0f} MiB" for l in l2s) + " |",
           "|---:|" + "---:|" * len(l2s)]
    for d in dram:
        cells = [f"{model_tokens_s(cell[(d, l)]):,.0f} ({layer_us(cell[(d, l)]):.1f})"
                 if (d, l) in cell else "-" for l in l2s]
        out.append(f"| {d * H200_BUS_BYTES / 1e6:.1f} TB/s | " + " | ".join(cells) + " |")
    lo, hi = cell[(dram[0], 62914560)], cell[(dram[-1], 62914560)]
    gain = model_tokens_s(hi) / model_tokens_s(lo)
    l2_gain = model_tokens_s(cell[(dram[0], l2s[-1])]) / model_tokens_s(cell[(dram[0], l2s[0])])
    out += ["", "The GEMVs' DRAM rates with the 60 MiB L2 (TB/s, and % of the DRAM peak):\n",
            "| DRAM | gate_up_proj (1,792 CTAs) | down_proj (256 CTAs) |", "|---:|---:|---:|"]
    for d in dram:
        r = cell[(d, 62914560)]
        peak = d * H200_BUS_BYTES / 1e6
        out.append(f"| {peak:.1f} TB/s | {float(r['gate_up_tbps']):.2f} "
                   f"({100 * float(r['gate_up_tbps']) / peak:.0f}%) | "
                   f"{float(r['down_tbps']):.2f} ({100 * float(r['down_tbps']) / peak:.0f}%) |")
    out.append("")
    out.append(f"With the 60 MiB L2, {dram[-1] / dram[0]:.2f}x the DRAM bandwidth gives "
               f"{gain:.2f}x the tokens/s; at 4.8 TB/s, four times the L2 "
               f"({l2s[0] / 2**20:.0f} to {l2s[-1] / 2**20:.0f} MiB) gives {l2_gain:.3f}x. Each "
               f"token moves {float(lo['dram_bytes']) / 2**20:.1f} MiB of DRAM a layer.\n")
    return out


def prefill_section(rows):
    out = ["Prefill of one 512-token prompt: time to the first token of 32 layers\n",
           "| BF16 wgmma peak | interval per column | one layer | 32 layers | DRAM MiB |",
           "|---:|---:|---:|---:|---:|"]
    for r in sorted(rows, key=peak_tflops):
        out.append(f"| {peak_tflops(r):,.0f} TFLOP/s | {float(r[TENSOR])} | "
                   f"{layer_us(r):.1f} us | {MODEL_LAYERS * layer_us(r) / 1e3:.2f} ms | "
                   f"{float(r['dram_bytes']) / 2**20:,.0f} |")
    rs = sorted(rows, key=peak_tflops)
    out.append("")
    out.append(f"{peak_tflops(rs[-1]) / peak_tflops(rs[0]):.0f}x the tensor throughput gives "
               f"{layer_us(rs[0]) / layer_us(rs[-1]):.2f}x the prefill speed.\n")
    return out


def section():
    decode = read_table(os.path.join(DOCS, "whatif_decode.csv"))
    prefill = read_table(os.path.join(DOCS, "whatif_prefill.csv"))
    lines = [BEGIN, ""]
    lines += decode_section(decode)
    lines += prefill_section(prefill)
    lines.append(END)
    return "\n".join(lines) + "\n"


def doc(check):
    if doc_section.write_or_check(LLM_MD, BEGIN, END, section(), check, "the what-if section"):
        sys.exit(1)


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--sassim", default=os.path.join(ROOT, "build/sim/cli/sassim"))
    r.add_argument("--jobs", type=int, default=os.cpu_count())
    r.add_argument("--only", choices=sorted(SPECS))
    sub.add_parser("plot")
    d = sub.add_parser("doc")
    d.add_argument("--check", action="store_true")
    args = p.parse_args()
    if args.cmd == "run":
        run(args)
    elif args.cmd == "plot":
        plot()
    else:
        doc(args.check)


if __name__ == "__main__":
    main()
