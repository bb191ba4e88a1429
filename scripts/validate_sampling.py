#!/usr/bin/python3
"""Kernel sampling against full simulation; writes docs/SAMPLING.md.

    scripts/validate_sampling.py [SASSIM]          runs every case, writes the doc
    scripts/validate_sampling.py --check [SASSIM]  reruns the quick cases and fails
                                                   unless the doc's rows for them match

Each case runs `sassim run` twice, in full and with `--sample kernels`, and compares
the results files: total cycles, each estimated launch's cycles, whether each estimate's
95% interval (`cycles_ci95_pct`) holds its real error, and the warp instructions
simulated in detail. The 1 G case runs sampled only (its full run takes hours here).
"""

import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare_results  # noqa: E402  (the bundled runs and the 1,000-launch workload)

h5py, np = compare_results.h5py, compare_results.np
REPO = compare_results.REPO
DOC = os.path.join(REPO, "docs", "SAMPLING.md")
DECODE = f"{compare_results.REF}/a100-flashinfer/test-traces/flashinfer-singledecode/traces"
QUICK = {"many-small-kernels", "vectoradd-100-32-trace", "matrixmul-32-32-trace"}
HEADER = ("| workload | preset | --sample | launches | sampled | warp insts | simulated in detail "
          "| fewer | total cycles error | worst sampled launch | CI holds the error | total CI |")
# Kernels of the suite captured at sizes of many waves (sassim capture), run with
# --sample ctas (at least 50 M warp instructions each where they are sampled): name,
# kernel and its values, listing.
CAPTURES = [
    ("stream_triad 2^27", "stream_triad 134217728", "sm_80"),
    ("saxpy 2^27", "saxpy 134217728", "sm_80"),
    ("sgemm_tiled 1024^3", "sgemm_tiled 1024 1024 1024", "sm_80"),
]
# Silicon regression runs (a tenth of their sizes, as bench.sh --quick), h200, --sample all.
SILICON = [
    ("h200 mem_bw (quick)", "ubench_mem_bw 132 3145728"),
    ("h200 l2_bw_32f (quick)", "ubench_l2_bw_32f 264 64"),
]
SILICON_SETS = ["--set", "simulation.flush_l2_before_kernels=true", "--set", "clocks.core_mhz=1500"]


def repeat_list(folder, name, kernel_file, times):
    path = os.path.join(folder, name, "kernelslist.g")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write((kernel_file + "\n") * times)
    return path


def run(sassim, preset, trace, out, sample, extra=()):
    args = [sassim, "run", "-q", "--config", preset, trace, "--out", out, *extra]
    if sample:
        args += ["--sample", sample]
    start = time.monotonic()
    done = subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                          cwd=REPO)
    if done.returncode != 0:
        sys.exit(f"{' '.join(args)} exited {done.returncode}:\n{done.stderr}")
    return time.monotonic() - start


def capture(sassim, folder, values, listing):
    args = [sassim, "capture", *values.split(), "--listing", f"kernels/sass/{listing}", "-o",
            folder, "-q"]
    done = subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                          cwd=REPO)
    if done.returncode != 0:
        sys.exit(f"{' '.join(args)} exited {done.returncode}:\n{done.stderr}")
    return folder


def row(name, preset, mode, full_path, sampled_path):
    with h5py.File(sampled_path, "r") as s:
        samp = s["kernels"][:]
        total_ci = float(s.attrs["cycles_ci95_pct"])
    est = samp["sampled"] == 1
    insts, simulated = int(samp["warp_instructions"].sum()), int(
        samp["simulated_warp_instructions"].sum())
    cells = [name, preset, mode, f"{len(samp):,}", f"{int(est.sum()):,}", f"{insts:,}",
             f"{simulated:,}", f"{insts / simulated:.1f}x"]
    if full_path is None:
        cells += ["(no full run)", "-", "-", f"+-{total_ci:.2f}%"]
    else:
        with h5py.File(full_path, "r") as f:
            full = f["kernels"][:]
        fc, sc = full["cycles"].astype(float), samp["cycles"].astype(float)
        total = 100 * (sc.sum() - fc.sum()) / fc.sum()
        err = np.abs(100 * (sc - fc) / fc)[est]
        held = (err <= samp["cycles_ci95_pct"][est] + 1e-9)
        cells += [f"{total:+.2f}%", f"{err.max():.2f}%" if est.any() else "-",
                  f"{int(held.sum())} of {int(est.sum())}" if est.any() else "-",
                  f"+-{total_ci:.2f}%"]
    return "| " + " | ".join(cells) + " |"


def cases(sassim, tmp, quick):
    """(name, preset, trace, full run too, --sample mode) of each row."""
    out = []
    for preset, trace in compare_results.DEFAULT_RUNS:
        name = os.path.basename(trace.rstrip("/"))
        if name == "traces":
            name = os.path.basename(os.path.dirname(trace))
        if quick and name not in QUICK:
            continue
        if name == "many-small-kernels":
            trace = compare_results.write_many_kernels(tmp)
        out.append((name, preset, trace, True, "kernels"))
    if quick:
        return out
    decode = os.path.join(REPO, DECODE, "kernel-1.traceg")
    out.append(("singledecode x 50", "a100", repeat_list(tmp, "d50", decode, 50), True, "kernels"))
    out.append(("singledecode x 5,000", "a100", repeat_list(tmp, "d5000", decode, 5000), False,
                "kernels"))
    for name, values, listing in CAPTURES:
        folder = capture(sassim, os.path.join(tmp, name.split()[0]), values, listing)
        out.append((name, "a100", folder, True, "ctas"))
    for name, values in SILICON:
        kernel = values.split()[0]
        folder = capture(sassim, os.path.join(tmp, kernel), values, "sm_90")
        extra = ["--sass", f"kernels/sass/sm_90/{kernel}.sass", *SILICON_SETS]
        out.append((name, "h200", folder, True, "all", extra))
    return out


def table(sassim, quick):
    rows, seconds = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for n, (name, preset, trace, with_full, mode, *extra) in enumerate(
                cases(sassim, tmp, quick)):
            extra = extra[0] if extra else []
            full = os.path.join(tmp, f"{n}-full.h5") if with_full else None
            sampled = os.path.join(tmp, f"{n}-sampled.h5")
            wall_full = run(sassim, preset, trace, full, None, extra) if with_full else None
            wall_sampled = run(sassim, preset, trace, sampled, mode, extra)
            rows.append(row(name, preset, mode, full, sampled))
            seconds.append((name, wall_full, wall_sampled))
            print(rows[-1], flush=True)
    return rows, seconds


def write_doc(rows, seconds):
    with open(os.path.join(REPO, "scripts", "sampling_doc.md.in")) as f:
        template = f.read()
    walls = "\n".join(
        f"| {name} | {'-' if full is None else f'{full:.1f} s'} | {sampled:.1f} s |"
        for name, full, sampled in seconds)
    text = template.replace("@TABLE@", "\n".join([HEADER, "|" + "---|" * 12] + rows))
    text = text.replace("@WALL@", "| workload | full | sampled |\n|---|---:|---:|\n" + walls)
    with open(DOC, "w") as f:
        f.write(text)
    print(f"wrote {DOC}")


def main(argv):
    check = "--check" in argv
    rest = [a for a in argv if a != "--check"]
    sassim = os.path.abspath(rest[0]) if rest else os.path.join(REPO, "build/sim/cli/sassim")
    rows, seconds = table(sassim, check)
    if not check:
        write_doc(rows, seconds)
        return 0
    with open(DOC) as f:
        doc = f.read().splitlines()
    stale = [r for r in rows if r not in doc]
    for r in stale:
        print(f"docs/SAMPLING.md lacks (or has another value for): {r}")
    if stale:
        print("rerun scripts/validate_sampling.py to regenerate docs/SAMPLING.md")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
