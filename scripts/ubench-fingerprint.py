#!/usr/bin/env python3
"""The microbenchmarks' fingerprint: warp instructions of each kernel (from its listing,
scripts/count-warp-insts.py with kernels/ubench/warp_paths.txt) against the hardware
record (kernels/ubench/hw_record.csv: smsp__inst_executed.sum on QV100, A100, H100).
Prints a Markdown table; exits 1 when a run is off by more than --tolerance percent.

Usage: scripts/ubench-fingerprint.py [--tolerance PERCENT]
"""
import argparse
import csv
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
GPUS = {"sm_70": "QV100", "sm_80": "A100", "sm_90": "H100"}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tolerance", type=float, default=None)
    args = parser.parse_args()
    record = {}
    with open(ROOT / "kernels" / "ubench" / "hw_record.csv") as f:
        for row in csv.DictReader(f):
            record.setdefault(row["app"], row)
            record[f"{row['app']} {row['args_tag']}"] = row
    counted = subprocess.run([str(ROOT / "scripts" / "count-warp-insts.py")], check=True,
                             capture_output=True, text=True).stdout
    table = {}
    for line in counted.splitlines():
        if line.startswith("TOTAL "):
            _, arch, kernel, total = line.split()
            app = kernel.removeprefix("ubench_").replace("max_iops_int32", "MaxIops_int32")
            # The transposes are the record's shared_bank_conflicts 1 and 2.
            app = {"shared_bank_conflicts": "shared_bank_conflicts 1",
                   "shared_bank_conflicts_padded": "shared_bank_conflicts 2"}.get(app, app)
            table.setdefault(app, {})[arch] = int(total)
    print("| run | GPU | record | this kernel | difference |")
    print("|---|---|---:|---:|---:|")
    off = 0
    for app, by_arch in table.items():
        for arch, total in sorted(by_arch.items()):
            want = float(record[app][f"{GPUS[arch]}_hw_warp_insts"])
            diff = 100 * (total - want) / want
            if args.tolerance is not None and abs(diff) > args.tolerance:
                off += 1
            print(f"| {app} | {GPUS[arch]} ({arch}) | {want:,.0f} | {total:,} | {diff:+.2f}% |")
    sys.exit(1 if off else 0)


if __name__ == "__main__":
    main()
