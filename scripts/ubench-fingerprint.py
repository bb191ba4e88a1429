#!/usr/bin/env python3
"""The microbenchmarks' fingerprint: the warp instructions each run of kernels/ubench/suite.txt
executes (`sassim capture` of its committed listing: sm_70 for QV100, sm_80 for A100, sm_90
for the record's H100 column) against the hardware record (kernels/ubench/hw_record.csv:
smsp__inst_executed.sum). Runs the record does not hold (the variants measured on the H200
only, kernels/ubench/hw_h200.csv) are left out. Prints a Markdown table and a summary line;
exits 1 when a run is off by more than --tolerance percent.

Usage: scripts/ubench-fingerprint.py [--sassim BINARY] [--tolerance PERCENT] [-j N]
"""
import argparse
import concurrent.futures
import csv
import os
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
# The record's GPU columns: (listing folder, suite.txt suffix of its launch sizes).
GPUS = {"QV100": ("sm_70", "qv100"), "A100": ("sm_80", "a100"), "H100": ("sm_90", "h100")}


def record_key(app, tag):
    return app + tag if tag.startswith("_") else f"{app}_{tag}"


def suite_runs(path):
    """(name, suffix or None, kernel, values) for each line of suite.txt."""
    runs = []
    for line in open(path):
        words = line.split("#", 1)[0].split()
        if words:
            name, _binary, kernel, *values = words
            base, _, suffix = name.partition(".")
            runs.append((base, suffix or None, kernel, values))
    return runs


def count(sassim, arch, kernel, values):
    out = subprocess.run([sassim, "capture", kernel, *values, "--listing",
                          str(ROOT / "kernels" / "sass" / arch), "-q"],
                         capture_output=True, text=True)
    m = re.search(r"(\d+) warp instructions", out.stdout + out.stderr)
    if out.returncode != 0 or not m:
        raise SystemExit(f"ubench-fingerprint: capture of {kernel} on {arch} failed:\n"
                         f"{out.stdout}{out.stderr}")
    return int(m.group(1))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sassim", default=str(ROOT / "build" / "sim" / "cli" / "sassim"))
    parser.add_argument("--tolerance", type=float, default=None)
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    with open(ROOT / "kernels" / "ubench" / "hw_record.csv") as f:
        record = {record_key(r["app"], r["args_tag"]): r for r in csv.DictReader(f)}
    jobs = []
    for name, suffix, kernel, values in suite_runs(ROOT / "kernels" / "ubench" / "suite.txt"):
        if name not in record:
            continue
        for gpu, (arch, gpu_suffix) in GPUS.items():
            if suffix in (None, gpu_suffix):
                jobs.append((name, gpu, arch, kernel, values))
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        counts = list(pool.map(lambda j: count(args.sassim, j[2], j[3], j[4]), jobs))
    print("| run | GPU | record | this kernel | difference |")
    print("|---|---|---:|---:|---:|")
    off = within = 0
    for (name, gpu, arch, _, _), total in zip(jobs, counts):
        want = float(record[name][f"{gpu}_hw_warp_insts"])
        diff = 100 * (total - want) / want
        within += abs(diff) <= 1.0
        if args.tolerance is not None and abs(diff) > args.tolerance:
            off += 1
        print(f"| {name} | {gpu} ({arch}) | {want:,.0f} | {total:,} | {diff:+.2f}% |")
    print(f"\n{within} of {len(jobs)} run-GPU pairs are within 1% of the record.")
    sys.exit(1 if off else 0)


if __name__ == "__main__":
    main()
