#!/usr/bin/env python3
"""Silicon regression: the microbenchmark runs of kernels/ubench/suite.txt, captured from
their committed SASS listings, simulated on the presets of the GPUs they were measured on
(QV100, A100 and the H100 column, an H200, in the public record kernels/ubench/hw_record.csv;
an H200 running these programs and variants of them, kernels/ubench/hw_h200.csv), and
correlated with the measured cycles. A run is simulated for each GPU that measured it. With
--suite kernels: the reference kernel suite, kernels/suite.txt, against the H200's
measurements of the same programs (hw_h200.csv).

For each GPU it writes OUT/GPU/ (results per run, hw.csv, the `sassim correlate` folder) and,
with --doc, a Markdown report and the scatter plots. --check-baseline fails when a GPU's MAPE
is more than --tolerance percentage points above the committed baseline (a ratchet);
--write-baseline records the new figures. See docs/SILICON.md.
"""
import argparse
import concurrent.futures
import csv
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# GPU key: (name in the record, listing folder, preset, suite.txt suffix of its launch sizes).
GPUS = {
    "qv100": ("QV100", "sm_70", "qv100", "qv100"),
    # The record's A100 is an A100 80GB PCIe (docs/UBENCH.md, "The record's A100").
    "a100": ("A100", "sm_80", "a100-pcie", "a100"),
    # The record's "H100" column was measured on the Accel-Sim CI's H200 (docs/UBENCH.md,
    # "The record"): it is simulated on the h200 preset.
    "h100": ("H100", "sm_90", "h200", "h100"),
    "h200": ("H200", "sm_90", "h200", "h100"),
}
# GPUs measured by scripts/device-ubench.sh running the suite's own programs: the record file
# and the clock control whose rows count. Each run is simulated at the SM clock Nsight
# Compute measured (gpc_mhz; base clocks lock it below the preset's boost clock).
OWN_RECORDS = {"h200": ("kernels/ubench/hw_h200.csv", "base")}
# The public record's SM clock: Accel-Sim's util/hw_stats/run_hw.py ran Nsight Compute
# with its default clock control, which locks base clocks. On the GH100 die that is
# 1,500 MHz, measured (H200, hw_h200.csv: 1,456 to 1,500 MHz, 1,499 in most runs); on the
# A100 80GB PCIe its published base clock, 1,065 MHz (TechPowerUp; the record's mem_bw
# moves 503 MB in 315,954 cycles, which at the 1,410 MHz boost clock would be 2.24 TB/s,
# above the card's 1,935 GB/s). No GV100 was measured under the lock, so QV100 runs at
# its preset's clock (docs/UBENCH.md).
RECORD_SM_MHZ = {"h100": 1500, "a100": 1065}
# Presets whose L2 runs at the SM clock (a100: no separate L2 clock is published), so a
# lock of the SM clock moves the L2's with it. Elsewhere the L2 keeps the preset's clock
# (h200: its own, measured at both SM clocks; docs/UBENCH.md).
L2_AT_SM_CLOCK = {"a100"}
SUFFIXES = sorted({g[3] for g in GPUS.values()})  # the GPU suffixes suite.txt may use
# --suite: the suite file, and the GPUs measured running it.
SUITES = {"ubench": ("kernels/ubench/suite.txt", list(GPUS)),
          "kernels": ("kernels/suite.txt", list(OWN_RECORDS))}
# Runs of a suite that `sassim capture` cannot execute on the CPU, and why (shown in the
# report as left out; never simulated).
NOT_CAPTURED: dict[str, str] = {}
# Runs added to a suite and not yet measured on any GPU (scripts/device-ubench.sh measures
# them when a GPU is at hand): shown as left out. Any other run without a measurement is an
# error (a misspelt name, a dropped record row).
AWAITING_MEASUREMENT = {
    "fp8_gemm_wgmma", "bf16_gemm_ws", "rmsnorm", "swiglu", "rope", "kv_append", "decode_attention",
    "decode_attention_combine", "decode_attention_tc", "cast_bf16", "residual_add", "prefill_attention",
    "skinny_gemm_m1", "skinny_gemm_m2", "skinny_gemm_m4", "skinny_gemm_m8",
    "moe_topk_softmax", "moe_align", "moe_permute", "moe_grouped_gemm", "moe_unpermute",
    "spec_verify_attention", "spec_argmax", "spec_accept",
}



class RegressError(Exception):
    pass


def record_key(app, tag):
    return app + tag if tag.startswith("_") else f"{app}_{tag}"


def read_record(path):
    rows = {}
    with open(path, newline="") as f:
        for line, row in enumerate(csv.DictReader(f), start=2):
            try:
                rows[record_key(row["app"], row["args_tag"])] = row
            except KeyError as e:
                raise RegressError(f"{path}:{line}: missing column {e}")
    return rows


def read_own_records(record, clock_control=None):
    """Adds the columns of the OWN_RECORDS files (GPU_hw_cycles, GPU_hw_warp_insts, GPU_mhz):
    the mean over a run's measurements at the clock control that counts (or the one given)."""
    for gpu, (rel, default_control) in OWN_RECORDS.items():
        control = clock_control or default_control
        path = ROOT / rel
        name = GPUS[gpu][0]
        sums = {}
        with open(path, newline="") as f:
            for line, row in enumerate(csv.DictReader(f), start=2):
                try:
                    if row["clock_control"] != control:
                        continue
                    values = (float(row["hw_cycles"]), float(row["hw_warp_insts"]),
                              float(row["gpc_mhz"]))
                except (KeyError, ValueError) as e:
                    raise RegressError(f"{path}:{line}: expected run, clock_control and numeric "
                                       f"hw_cycles, hw_warp_insts and gpc_mhz ({e})")
                total = sums.setdefault(row["run"], [0.0, 0.0, 0.0, 0])
                for i, v in enumerate(values):
                    total[i] += v
                total[3] += 1
        for run, (cycles, insts, mhz, n) in sums.items():
            entry = record.setdefault(run, {})
            entry[f"{name}_hw_cycles"] = cycles / n
            entry[f"{name}_hw_warp_insts"] = insts / n
            entry[f"{name}_mhz"] = round(mhz / n)
    return record


def read_suite(path, gpu):
    """The runs of suite.txt for one GPU: (name, kernel, values); NAME.gpu lines only for it."""
    runs = []
    with open(path) as f:
        for line_no, line in enumerate(f, start=1):
            text = line.split("#", 1)[0].split()
            if not text:
                continue
            if len(text) < 3:
                raise RegressError(f"{path}:{line_no}: expected NAME BINARY KERNEL [VALUE...]")
            name, _binary, kernel, *values = text
            base, _, only = name.partition(".")
            if only and only not in SUFFIXES:
                raise RegressError(f"{path}:{line_no}: unknown GPU suffix '.{only}' "
                                   f"(expected one of {', '.join(SUFFIXES)})")
            if only and only != GPUS[gpu][3]:
                continue
            runs.append((base, kernel, values))
    return runs


def run(cmd, what):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT)
    if p.returncode != 0:
        raise RegressError(f"{what} failed ({' '.join(map(str, cmd))}):\n{p.stdout.strip()}")
    return p.stdout


def listing_dir(gpu, kernel):
    """The GPU's listing folder; for sm_90, sm_90a where only it has the kernel."""
    folder = ROOT / "kernels" / "sass" / GPUS[gpu][1]
    arch = folder.with_name(folder.name + "a")
    if not (folder / f"{kernel}.sass").is_file() and (arch / f"{kernel}.sass").is_file():
        return arch
    return folder


def capture(args, gpu, name, kernel, values, trace_dir):
    folder = listing_dir(gpu, kernel)
    listing = folder / f"{kernel}.sass"
    if not listing.is_file():
        raise RegressError(f"{listing}: no listing for {kernel} on {GPUS[gpu][1]}")
    digest = hashlib.sha256()
    digest.update(listing.read_bytes())
    const2 = listing.with_suffix(".const2")
    if const2.is_file():
        digest.update(const2.read_bytes())
    digest.update(" ".join([kernel, *values]).encode())
    digest.update(args.sassim_digest.encode())  # a rebuilt capture may write other traces
    stamp = trace_dir / "capture.stamp"
    if stamp.is_file() and stamp.read_text() == digest.hexdigest():
        return json.loads((trace_dir / "capture.json").read_text())["warp_insts"]
    shutil.rmtree(trace_dir, ignore_errors=True)
    out = run([args.sassim, "capture", kernel, *values, "--listing", str(folder.relative_to(ROOT)), "-o",
               str(trace_dir), "-q"], f"capture of {name} ({gpu})")
    m = re.search(r"(\d+) warp instructions", out)
    if not m:
        raise RegressError(f"capture of {name} ({gpu}): no warp-instruction count in:\n{out}")
    insts = int(m.group(1))
    (trace_dir / "capture.json").write_text(json.dumps({"warp_insts": insts}))
    stamp.write_text(digest.hexdigest())
    return insts


def simulate(args, gpu, name, kernel, values, out_dir, clock_mhz=None):
    trace_dir = (Path(args.cache) if args.cache else out_dir / "traces") / gpu / name
    trace_dir.parent.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    insts = capture(args, gpu, name, kernel, values, trace_dir)
    t1 = time.monotonic()
    h5 = out_dir / gpu / f"{name}.h5"
    # Nsight Compute, as every record here was measured, empties the caches before each
    # kernel it measures (--cache-control all, its default): the inputs the programs copied
    # to the GPU are not in the L2 when the kernel starts.
    overrides = ["simulation.flush_l2_before_kernels=true"]
    # The SM clock the run was measured at (before --set, which may change it), and the
    # L2's where it follows the SM clock (L2_AT_SM_CLOCK).
    if clock_mhz:
        overrides += [f"clocks.core_mhz={clock_mhz}"]
        if gpu in L2_AT_SM_CLOCK:
            overrides += [f"clocks.l2_mhz={clock_mhz}"]
    overrides += [f"{path}={value}" for g, path, value in args.overrides if g == gpu]
    listing = listing_dir(gpu, kernel) / f"{kernel}.sass"
    # The listing's control bits (stall counts, scoreboards, yield) drive the issue.
    cmd = [args.sassim, "run", str(trace_dir), "-c", GPUS[gpu][2], "-q", "-o", str(h5),
           "--sass", str(listing)]
    for o in overrides:
        cmd += ["--set", o]
    if args.sample != "off":
        cmd += ["--sample", args.sample]
    text = run(cmd, f"simulation of {name} ({gpu})")
    t2 = time.monotonic()
    if not args.cache:
        shutil.rmtree(trace_dir, ignore_errors=True)
    m = re.search(rf"^\s+1\s+{re.escape(kernel)}\s+(\d+)\s+(\d+)", text, re.M)
    if not m:
        raise RegressError(f"simulation of {name} ({gpu}): no result line in:\n{text}")
    return {"name": name, "kernel": kernel, "h5": str(h5), "sim_cycles": int(m.group(1)),
            "warp_insts": insts, "capture_s": t1 - t0, "sim_s": t2 - t1}


def progress(msg, quiet):
    if not quiet:
        print(msg, file=sys.stderr, flush=True)


def regress_gpu(args, gpu, record, pool):
    gpu_name = GPUS[gpu][0]
    out_dir = Path(args.out)
    (out_dir / gpu).mkdir(parents=True, exist_ok=True)
    suite = SUITES[args.suite][0]
    runs = [r for r in read_suite(ROOT / suite, gpu)
            if re.search(args.only, r[0]) and not (args.exclude and re.search(args.exclude, r[0]))]
    not_captured = [f"{r[0]}: not captured: {NOT_CAPTURED[r[0]]}" for r in runs
                    if r[0] in NOT_CAPTURED]
    runs = [r for r in runs if r[0] not in NOT_CAPTURED]
    if args.clock_control:  # only some runs were measured at the other clock control
        not_captured += [f"{r[0]}: not measured with --clock-control {args.clock_control}"
                         for r in runs if f"{gpu_name}_hw_cycles" not in record.get(r[0], {})]
        runs = [r for r in runs if f"{gpu_name}_hw_cycles" in record.get(r[0], {})]
    # Runs measured on other GPUs only (the H200's variants of the record's programs).
    measured_elsewhere = [r for r in runs if f"{gpu_name}_hw_cycles" not in record.get(r[0], {})
                          and any(f"{GPUS[g][0]}_hw_cycles" in record.get(r[0], {})
                                  for g in GPUS)]
    not_captured += [f"{r[0]}: not measured on {gpu_name}" for r in measured_elsewhere]
    runs = [r for r in runs if r not in measured_elsewhere]
    awaiting = [r for r in runs if r[0] in AWAITING_MEASUREMENT
                and not any(f"{GPUS[g][0]}_hw_cycles" in record.get(r[0], {}) for g in GPUS)]
    not_captured += [f"{r[0]}: not yet measured on a GPU" for r in awaiting]
    runs = [r for r in runs if r not in awaiting]
    if not runs:
        raise RegressError(f"no run of {suite} is selected for {gpu}")
    for name, _, _ in runs:
        if f"{gpu_name}_hw_cycles" not in record.get(name, {}):
            raise RegressError(f"{suite}: run {name} has no measurement on any GPU")
    clock = lambda name: record[name].get(f"{gpu_name}_mhz") or RECORD_SM_MHZ.get(gpu)
    futures = [pool.submit(simulate, args, gpu, *r, out_dir, clock(r[0])) for r in runs]
    results, failed = [], []
    for f in futures:
        try:
            r = f.result()
        except RegressError as e:
            if not args.keep_going:
                raise
            failed.append(str(e).splitlines()[0] + " " + str(e).splitlines()[-1])
            progress(f"  {gpu}: {failed[-1]}", args.quiet)
            continue
        row = record[r["name"]]
        r["hw_cycles"] = float(row[f"{gpu_name}_hw_cycles"])
        r["hw_warp_insts"] = float(row[f"{gpu_name}_hw_warp_insts"])
        accel = row.get(f"{gpu_name}_accelsim_cycles")
        r["accelsim_cycles"] = float(accel) if accel else None
        results.append(r)
        progress(f"  {gpu} {r['name']}: {r['sim_cycles']} cycles (hw {r['hw_cycles']:.0f}), "
                 f"{r['warp_insts']} warp insts in {r['sim_s']:.1f} s", args.quiet)
    hw_csv = out_dir / gpu / "hw.csv"
    with open(hw_csv, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["kernel", "cycles"])
        for r in results:
            w.writerow([r["kernel"], r["hw_cycles"]])
    corr = out_dir / gpu / "correlation"
    cmd = [args.sassim, "correlate", "--hw", str(hw_csv), "--out", str(corr)]
    for r in results:
        cmd += ["--sim", r["h5"]]
    run(cmd, f"correlation of {gpu}")
    summary = json.loads((corr / "summary.json").read_text())
    accel = [abs(r["accelsim_cycles"] - r["hw_cycles"]) / r["hw_cycles"] for r in results
             if r["accelsim_cycles"] is not None]
    return {"gpu": gpu, "runs": results, "summary": summary, "failed": failed,
            "not_captured": not_captured,
            "accelsim_mape": 100 * sum(accel) / len(accel) if accel else None}


def fmt_pct(x):
    return "n/a" if x is None else f"{x:+.1f}%"


def fmt_mape(x):
    return "n/a" if x is None else f"{x:.1f}%"


KERNELS_INTRO = [
    "# Silicon regression: the reference kernel suite on an H200",
    "",
    "Written by `scripts/regress-silicon.sh --suite kernels` (do not edit by hand): each run of",
    "[`kernels/suite.txt`](../kernels/suite.txt) (kernels/README.md) is captured from its",
    "committed `kernels/sass/sm_90` listing (`sm_90a` for bf16_gemm_wgmma), simulated on the",
    "`h200` preset issuing by the listing's control bits (`--sass`) at the SM clock measured",
    "(the L2 at the preset's own clock), with the L2 emptied when the kernel starts, and",
    "compared by `sassim correlate` with Nsight Compute's `gpc__cycles_elapsed.avg` for the",
    "same program on a real H200",
    "([`kernels/ubench/hw_h200.csv`](../kernels/ubench/hw_h200.csv), `scripts/device-ubench.sh`,",
    "clocks locked to base by Nsight Compute; the mean where a run was measured more than",
    "once). The warp instructions captured match the H200's `smsp__inst_executed.sum`",
    "exactly: these are the programs measured (bf16_gemm_wgmma: 0.15% fewer, the retries of",
    "its mbarrier waits, which the capture leaves out: docs/CAPTURE.md). Targets as for the",
    "microbenchmarks ([SILICON.md](SILICON.md)): MAPE at most 10%, Pearson r at least 0.99,",
    "no run off by more than 25%.",
    "",
    "Rerun: `scripts/regress-silicon.sh --suite kernels --doc docs/SILICON_KERNELS.md`. The",
    "ratchet test `silicon_kernels_ci` replays every run but sgemm_tiled (`--exclude",
    "'^sgemm_tiled$'`: the suite's longest simulation) and fails when the MAPE rises more",
    "than one point above the `kernels` entry of `tests/silicon/baseline.json`; record an",
    "improvement with the same selection and `--write-baseline --baseline-key kernels`. Where the",
    "model stands and why: [UBENCH.md](UBENCH.md#the-kernel-suite-on-the-h200).",
    "",
]


def write_doc(args, reports):
    doc = Path(args.doc)
    fig_dir = doc.parent / "silicon"
    fig_dir.mkdir(parents=True, exist_ok=True)
    figure = lambda gpu: f"{gpu}-scatter.svg" if args.suite == "ubench" else f"kernels-{gpu}-scatter.svg"
    lines = KERNELS_INTRO if args.suite == "kernels" else [
        "# Silicon regression: microbenchmarks against measured cycles",
        "",
        "Written by `scripts/regress-silicon.sh` (do not edit by hand): each run of",
        "[`kernels/ubench/suite.txt`](../kernels/ubench/suite.txt) is captured from its committed",
        "listing (`kernels/sass/sm_70` for QV100, `sm_80` for A100, `sm_90` for H100 and H200),",
        "simulated on the GPU's preset issuing by the listing's control bits (`--sass`) and",
        "compared with Nsight Compute's `gpc__cycles_elapsed.avg` by `sassim correlate`. QV100,",
        "A100 and H100: the public Accel-Sim record",
        "[`kernels/ubench/hw_record.csv`](../kernels/ubench/hw_record.csv) of the same programs",
        "(gpu-app-collection 3e5b32a9; source, caveats and the fingerprints: [UBENCH.md](UBENCH.md));",
        "Accel-Sim's cycles from it are shown for comparison. The record's \"H100\" column was",
        "measured on the Accel-Sim CI's H200, so it is simulated on the `h200` preset at",
        "1,500 MHz, the SM clock Nsight Compute's default lock gives that die; the A100 column",
        "on the `a100-pcie` preset (the record's card, an A100 80GB PCIe) at its base clock,",
        "1,065 MHz, the L2 with it; QV100 at its preset's clock. H200: programs measured on a",
        "real H200 by this project",
        "([`kernels/ubench/hw_h200.csv`](../kernels/ubench/hw_h200.csv), `scripts/device-ubench.sh`;",
        "the mean of each run's measurements at Nsight Compute's base clocks, and the run",
        "simulated at the SM clock measured, about 1,500 MHz, the L2 at the preset's own",
        "clock): the record's unchanged programs and eight variants of the others (`_cta`,",
        "`_c`, `_serial`, `_sm`, `_ring`; the rebuilt programs themselves are not yet measured",
        "there). Every run starts with the L2 emptied (`simulation.flush_l2_before_kernels`),",
        "as Nsight Compute measures by default. Targets: MAPE at most 10% per GPU, Pearson r",
        "at least 0.99, no run off by more than 25%.",
        "",
        "Rerun: `scripts/regress-silicon.sh --doc docs/SILICON.md` (all runs; `--help` for",
        "`--gpu`, `--only`, `--exclude`, `--cache DIR` to keep and reuse traces, `-j N`). The ratchet test `silicon_regression_ci` replays",
        "the runs other than l2_bw_* and mem_bw and fails when a GPU's MAPE over them rises",
        "more than one point above `tests/silicon/baseline.json`; after an improvement, record",
        "it with `--exclude '^(l2_bw|mem_bw)' --write-baseline --baseline-key ci`. Where the",
        "model stands and why: [UBENCH.md](UBENCH.md#where-the-model-is-off).",
        "",
    ]
    lines = lines + [
        "| GPU | runs | MAPE | Pearson r | largest error | aggregate error | Accel-Sim MAPE (same runs) |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for rep in reports:
        s = rep["summary"]
        r = "undefined" if s.get("pearson_r") is None else f"{s['pearson_r']:.3f}"
        lines.append(f"| {GPUS[rep['gpu']][0]} | {s['matched']} | {s['mape_percent']:.1f}% | {r} | "
                     f"{s['max_abs_error_percent']:.1f}% | {fmt_pct(s['aggregate_error_percent'])} | "
                     f"{fmt_mape(rep['accelsim_mape'])} |")
    for rep in reports:
        gpu = rep["gpu"]
        name = GPUS[gpu][0]
        svg = Path(args.out) / gpu / "correlation" / "scatter.svg"
        if svg.is_file():
            shutil.copyfile(svg, fig_dir / figure(gpu))
        lines += ["", f"## {name} (preset `{GPUS[gpu][2]}`, listings `{GPUS[gpu][1]}`)", "",
                  f"![{name} simulated against measured cycles](silicon/{figure(gpu)})", "",
                  "| run | measured cycles | sassim | error | Accel-Sim error | warp insts: captured / measured |",
                  "|---|---:|---:|---:|---:|---:|"]
        for r in rep["runs"]:
            err = 100 * (r["sim_cycles"] - r["hw_cycles"]) / r["hw_cycles"]
            acc = (None if r["accelsim_cycles"] is None else
                   100 * (r["accelsim_cycles"] - r["hw_cycles"]) / r["hw_cycles"])
            fp = 100 * (r["warp_insts"] - r["hw_warp_insts"]) / r["hw_warp_insts"]
            lines.append(f"| {r['name']} | {r['hw_cycles']:,.0f} | {r['sim_cycles']:,} | {err:+.1f}% | "
                         f"{fmt_pct(acc)} | {r['warp_insts']:,} ({fp:+.2f}%) |")
        if rep["failed"]:
            lines += ["", "Left out (capture or simulation failed):", ""]
            lines += [f"- {f}" for f in rep["failed"]]
        if rep["not_captured"]:
            lines += ["", "Left out:", ""]
            lines += [f"- {f}" for f in rep["not_captured"]]
    doc.write_text("\n".join(lines) + "\n")


def check_baseline(args, reports):
    path = Path(args.baseline)
    if not path.is_file():
        return [f"{path}: no baseline file (write one with --write-baseline)"]
    base = json.loads(path.read_text()).get(args.baseline_key, {})
    failed = []
    for rep in reports:
        gpu = rep["gpu"]
        mape = rep["summary"]["mape_percent"]
        if gpu not in base:
            failed.append(f"{gpu}: no baseline for '{args.baseline_key}' in {args.baseline}")
            continue
        limit = base[gpu]["mape_percent"] + args.tolerance
        verdict = "ok" if mape <= limit else "WORSE"
        print(f"{gpu}: MAPE {mape:.2f}% (baseline {base[gpu]['mape_percent']:.2f}%, "
              f"limit {limit:.2f}%) {verdict}")
        if mape < base[gpu]["mape_percent"] - args.tolerance:
            print(f"{gpu}: better than the baseline by more than {args.tolerance} points: "
                  f"record it with --write-baseline --baseline-key {args.baseline_key}")
        if mape > limit:
            failed.append(f"{gpu}: MAPE {mape:.2f}% is above the baseline "
                          f"{base[gpu]['mape_percent']:.2f}% + {args.tolerance} points")
    return failed


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sassim", default=str(ROOT / "build/sim/cli/sassim"))
    p.add_argument("--suite", choices=list(SUITES), default="ubench",
                   help="ubench: the microbenchmarks (default); kernels: kernels/suite.txt")
    p.add_argument("--gpu", action="append", choices=list(GPUS),
                   help="GPU to regress (repeatable; default every GPU measured on the suite)")
    p.add_argument("--only", default="", help="regular expression on run names")
    p.add_argument("--exclude", default="", help="leave out runs matching this expression")
    p.add_argument("--cache", help="keep captured traces here and reuse them when unchanged")
    p.add_argument("--out", default=str(ROOT / "build/silicon"))
    p.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--doc", help="write the Markdown report here (e.g. docs/SILICON.md)")
    p.add_argument("--baseline", default=str(ROOT / "tests/silicon/baseline.json"))
    p.add_argument("--baseline-key", default="full",
                   help="which selection of runs the baseline figures are for (default full)")
    p.add_argument("--check-baseline", action="store_true")
    p.add_argument("--write-baseline", action="store_true")
    p.add_argument("--tolerance", type=float, default=1.0, help="percentage points (default 1)")
    p.add_argument("--set", dest="set", action="append", default=[], metavar="GPU:PATH=VALUE",
                   help="config override for one GPU's simulations, e.g. a100:clocks.core_mhz=1095")
    p.add_argument("--clock-control", choices=["base", "none"],
                   help="which of an own record's measurements count (h200: base, the "
                        "default, locks the SM clock near 1,500 MHz; none leaves it free, "
                        "~1,980 MHz, for the runs measured that way)")
    p.add_argument("-k", "--keep-going", action="store_true",
                   help="leave out runs whose capture or simulation fails (listed in the report)")
    p.add_argument("--sample", choices=["off", "kernels", "ctas", "all"], default="off",
                   help="sampling for every simulation (sassim run --sample; "
                        "scripts/validate_sampling.py compares it with full runs)")
    p.add_argument("-q", "--quiet", action="store_true")
    args = p.parse_args()
    args.overrides = []
    for item in args.set:
        m = re.fullmatch(r"(\w+):([\w.\[\]]+)=(.+)", item)
        if not m or m.group(1) not in GPUS:
            raise RegressError(f"--set {item}: expected GPU:PATH=VALUE with GPU one of "
                               f"{', '.join(GPUS)}")
        args.overrides.append(m.groups())
    for gpu in args.gpu or []:
        if gpu not in SUITES[args.suite][1]:
            raise RegressError(f"--gpu {gpu}: the {args.suite} suite was measured on "
                               f"{', '.join(SUITES[args.suite][1])} only")
    if not os.access(args.sassim, os.X_OK):
        raise RegressError(f"{args.sassim}: not an executable sassim (build it first)")
    args.sassim_digest = hashlib.sha256(Path(args.sassim).read_bytes()).hexdigest()
    if args.clock_control:
        for gpu in args.gpu or SUITES[args.suite][1]:
            if gpu not in OWN_RECORDS:
                raise RegressError(f"--clock-control: {gpu} was measured by others at one "
                                   f"clock; give --gpu {' --gpu '.join(OWN_RECORDS)}")
    record = read_own_records(read_record(ROOT / "kernels/ubench/hw_record.csv"),
                              args.clock_control)
    reports = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for gpu in args.gpu or SUITES[args.suite][1]:
            progress(f"{gpu}: capturing and simulating", args.quiet)
            reports.append(regress_gpu(args, gpu, record, pool))
    for rep in reports:
        s = rep["summary"]
        r = "undefined" if s.get("pearson_r") is None else f"{s['pearson_r']:.4f}"
        print(f"{rep['gpu']}: {s['matched']} runs, MAPE {s['mape_percent']:.2f}%, Pearson r {r}, "
              f"largest error {s['max_abs_error_percent']:.1f}% "
              f"(Accel-Sim MAPE on the same runs {fmt_mape(rep['accelsim_mape'])})")
    if args.doc:
        write_doc(args, reports)
    if args.write_baseline:
        path = Path(args.baseline)
        whole = json.loads(path.read_text()) if path.is_file() else {}
        base = whole.setdefault(args.baseline_key, {})
        for rep in reports:
            base[rep["gpu"]] = {"mape_percent": round(rep["summary"]["mape_percent"], 2),
                                "runs": rep["summary"]["matched"]}
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(whole, indent=2, sort_keys=True) + "\n")
    if args.check_baseline:
        failed = check_baseline(args, reports)
        failed += [f for rep in reports for f in rep["failed"]]
        if failed:
            raise RegressError("\n".join(failed))


if __name__ == "__main__":
    try:
        main()
    except RegressError as e:
        print(f"regress-silicon: error: {e}", file=sys.stderr)
        sys.exit(1)
