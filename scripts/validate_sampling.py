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
    ("transpose_shared 12288^2", "transpose_shared 12288 12288", "sm_80"),
    ("rmsnorm 24576 x 4096", "rmsnorm 24576 4096", "sm_80"),
    ("hgemm_mma 8192 x 8192 x 576", "hgemm_mma 8192 8192 576", "sm_80"),
]
# The silicon regression's runs on h200 (scripts/regress_silicon.py, the regression's
# settings), each suite in full and with --sample all.
SILICON_SUITES = ["ubench", "kernels"]


def repeat_list(folder, name, kernel_file, times):
    path = os.path.join(folder, name, "kernelslist.g")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write((kernel_file + "\n") * times)
    return path


def call(args):
    """Runs a command in the repository, exits on failure; returns its wall time."""
    start = time.monotonic()
    done = subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                          cwd=REPO)
    if done.returncode != 0:
        sys.exit(f"{' '.join(args)} exited {done.returncode}:\n{done.stderr}")
    return time.monotonic() - start


def run(sassim, preset, trace, out, sample, extra=()):
    args = [sassim, "run", "-q", "--config", preset, trace, "--out", out, *extra]
    if sample:
        args += ["--sample", sample]
    return call(args)


def capture(sassim, folder, values, listing):
    call([sassim, "capture", *values.split(), "--listing", f"kernels/sass/{listing}", "-o",
          folder, "-q"])
    return folder


def row(name, preset, mode, full_path, sampled_path):
    with h5py.File(sampled_path, "r") as s:
        samp = s["kernels"][:]
        total_ci = float(s.attrs["cycles_ci95_pct"])
    full = None
    if full_path is not None:
        with h5py.File(full_path, "r") as f:
            full = f["kernels"][:]
    return table_row(name, preset, mode, full, samp, total_ci)


def table_row(name, preset, mode, full, samp, total_ci):
    """A row of the table: `full` and `samp` the /kernels tables (full None: no full run)."""
    est = samp["sampled"] == 1
    insts, simulated = int(samp["warp_instructions"].sum()), int(
        samp["simulated_warp_instructions"].sum())
    cells = [name, preset, mode, f"{len(samp):,}", f"{int(est.sum()):,}", f"{insts:,}",
             f"{simulated:,}", f"{insts / simulated:.1f}x"]
    if full is None:
        cells += ["(no full run)", "-", "-", f"+-{total_ci:.2f}%"]
    else:
        fc, sc = full["cycles"].astype(float), samp["cycles"].astype(float)
        total = 100 * (sc.sum() - fc.sum()) / fc.sum()
        err = np.abs(100 * (sc - fc) / fc)[est]
        held = (err <= samp["cycles_ci95_pct"][est] + 1e-9)
        cells += [f"{total:+.2f}%", f"{err.max():.2f}%" if est.any() else "-",
                  f"{int(held.sum())} of {int(est.sum())}" if est.any() else "-",
                  f"+-{total_ci:.2f}%"]
    return "| " + " | ".join(cells) + " |"


def regress(sassim, suite, tmp, sample):
    """Runs a silicon suite on h200; returns {run: its /kernels table} and the wall time."""
    out = os.path.join(tmp, f"silicon-{suite}-{sample or 'full'}")
    args = [sys.executable, os.path.join(REPO, "scripts", "regress_silicon.py"), "--sassim",
            sassim, "--suite", suite, "--gpu", "h200", "--cache", os.path.join(tmp, "cache"),
            "--out", out, "-q", "-k", "-j", str(os.cpu_count() or 1)]
    if sample:
        args += ["--sample", sample]
    wall = call(args)
    tables = {}
    for name in sorted(os.listdir(os.path.join(out, "h200"))):
        if name.endswith(".h5"):
            with h5py.File(os.path.join(out, "h200", name), "r") as f:
                tables[name[:-3]] = f["kernels"][:]
    return tables, wall


def silicon_row(sassim, suite, tmp):
    """The suite's runs as one row: launches, sampled ones and the sum of their cycles."""
    full, wall_full = regress(sassim, suite, tmp, None)
    samp, wall_sampled = regress(sassim, suite, tmp, "all")
    names = sorted(set(full) & set(samp))
    f = np.concatenate([full[n] for n in names])
    s = np.concatenate([samp[n] for n in names])
    # The runs are independent: their intervals, in cycles, add in quadrature.
    ci = 100 * np.sqrt(((s["cycles_ci95_pct"] / 100 * s["cycles"]) ** 2).sum()) / s["cycles"].sum()
    name = f"silicon runs, {suite} (h200)"
    return table_row(name, "h200", "all", f, s, float(ci)), (name, wall_full, wall_sampled)


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
        for suite in [] if quick else SILICON_SUITES:
            text, wall = silicon_row(sassim, suite, tmp)
            rows.append(text)
            seconds.append(wall)
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
