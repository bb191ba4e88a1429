#!/usr/bin/python3
"""Bit-identity of two sassim builds' results.

    scripts/compare_results.py A.h5 B.h5
        compares two results files (docs/RESULTS.md): every attribute and dataset,
        bit for bit, except the host time (/kernels host_seconds) and the attributes
        naming the build (git_commit, sassim_version); a file without `partial` is whole.
    scripts/compare_results.py --run OLD_SASSIM NEW_SASSIM [PRESET TRACE]...
        runs both binaries with --out on each trace (default: every bundled reference
        trace on its preset, a 1,000-launch workload of the a100 PyTorch helper
        kernels, and the a100 GEMM trace on h100) and compares the files.
    --added (before either form)
        the newer file (B, NEW) may hold more than the older: /kernels columns, counters
        (/stats by name, /per_sm) and datasets the older lacks are listed, not failures;
        everything both hold must still be identical bit for bit.

Exit status 0 when every pair is identical, 1 otherwise.
"""

import os
import re
import subprocess
import sys
import tempfile

try:
    import h5py
    import numpy as np
except ImportError as missing:  # pragma: no cover - depends on the machine
    sys.exit(f"{sys.argv[0]}: needs h5py and numpy ({missing}); apt install python3-h5py")

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REF = "traces/reference"
GEMM = f"{REF}/a100-flashinfer/test-traces/flashinfer-gemm/traces"
DEFAULT_RUNS = [
    ("gtx1080", f"{REF}/gtx1080-microgpusim/test-apps/vectoradd/traces/vectoradd-100-32-trace"),
    ("gtx1080", f"{REF}/gtx1080-microgpusim/test-apps/matrixmul/traces/matrixmul-32-32-trace"),
    ("rtx2060", f"{REF}/rtx-turing-vecadd-v1.2/util/tracer_nvbit/traces/GPU_0"),
    ("v100", f"{REF}/v100-rodinia-bfs/util/tracer_nvbit/traces/bfs-rodinia-3.1"),
    ("a100", GEMM),
    ("a100", f"{REF}/a100-flashinfer/test-traces/flashinfer-prefill/traces"),
    ("a100", f"{REF}/a100-flashinfer/test-traces/flashinfer-singledecode/traces"),
    ("h100", GEMM),
    ("a100", "many-small-kernels"),  # written by write_many_kernels()
    ("a100", "tests/data/traces/small_workload"),  # two streams, concurrent kernels
    ("v100", "tests/data/traces/small_workload"),
]
IGNORED_FIELDS = {"host_seconds"}
# Which build wrote a file, not what it computed.
IGNORED_ATTRIBUTES = {"git_commit", "sassim_version"}
# Attributes that files written before them lack, with the value such files mean.
ATTRIBUTE_DEFAULTS = {"partial": 0, "sampling": "off", "cycles_ci95_pct": 0.0}
# /kernels columns that files written before them lack, with the value such files mean
# (a column name: that column's values).
FIELD_DEFAULTS = {"sampled": 0, "simulated_warp_instructions": "warp_instructions",
                  "cycles_ci95_pct": 0.0}
# What the energy model adds (docs/ENERGY.md): figures computed after timing, absent from
# files of builds before it. Compared when both files hold them, skipped when one lacks
# them; the /config text is compared without its energy section.
ADDED_FIELDS = {"energy_j", "avg_power_w", "energy_per_flop_j", "energy_per_dram_byte_j"}
ADDED_PATHS = ("energy",)


def without_energy(config_text):
    """A /config text without its `energy { ... }` block (the block nests one level)."""
    return re.sub(r"(?ms)^energy \{\n.*?^\}\n", "", config_text)


def write_many_kernels(folder, repeats=125):
    """A kernelslist.g launching the GEMM trace's 8 PyTorch kernels `repeats` times."""
    kernels = os.path.join(REPO, GEMM)
    path = os.path.join(folder, "many", "kernelslist.g")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        for _ in range(repeats):
            for k in range(1, 9):
                f.write(os.path.join(kernels, f"kernel-{k}.traceg") + "\n")
    return path


def field_or_default(table, name, other):
    """Column `name` of a compound array, or, for a column added later that `table`
    lacks, the values files without it mean (None when there is no such default)."""
    if name in table.dtype.names:
        return table[name]
    default = FIELD_DEFAULTS.get(name)
    if default is None:
        return None
    if isinstance(default, str):
        return table[default].astype(other[name].dtype)
    return np.full(table.shape, default, dtype=other[name].dtype)


def same_array(a, b, added=False):
    if a.shape != b.shape:
        return False
    if a.dtype.names and b.dtype.names:
        for name in set(a.dtype.names) | set(b.dtype.names):
            if name in IGNORED_FIELDS or (added and name not in a.dtype.names):
                continue
            if name in ADDED_FIELDS and (name not in a.dtype.names or name not in b.dtype.names):
                continue
            x, y = field_or_default(a, name, b), field_or_default(b, name, a)
            if x is None or y is None or not same_array(x, y):
                return False
        return True
    if a.dtype != b.dtype:
        return False
    if a.dtype.kind == "O":  # variable-length strings
        return list(a.ravel()) == list(b.ravel())
    return a.tobytes() == b.tobytes()  # bit for bit: -0.0 and NaN payloads count


def h5py_text(value):
    return value.decode() if isinstance(value, bytes) else str(value)


def same_stats(a, b):
    """Whether every counter of file a's /stats has the same values in file b's (which
    may hold more)."""
    names_a = [str(n) for n in a["stats/names"].asstr()[()]]
    names_b = [str(n) for n in b["stats/names"].asstr()[()]]
    index_b = {n: i for i, n in enumerate(names_b)}
    if any(n not in index_b for n in names_a):
        return False
    values_a = np.asarray(a["stats/values"][()]).reshape(-1, len(names_a))
    values_b = np.asarray(b["stats/values"][()]).reshape(-1, len(names_b))
    picked = values_b[:, [index_b[n] for n in names_a]]
    return values_a.shape == picked.shape and values_a.tobytes() == picked.tobytes()


def compare_files(path_a, path_b, added=False, notes=None):
    """Differences between two results files, as messages (empty when identical). With
    `added`, what only b holds is appended to `notes` (a list) instead."""
    problems = []
    with h5py.File(path_a, "r") as a, h5py.File(path_b, "r") as b:
        for key in sorted((set(a.attrs) | set(b.attrs)) - IGNORED_ATTRIBUTES):
            value_a = a.attrs.get(key, ATTRIBUTE_DEFAULTS.get(key))
            value_b = b.attrs.get(key, ATTRIBUTE_DEFAULTS.get(key))
            if value_a is None or value_b is None or value_a != value_b:
                problems.append(f"attribute {key} differs")
        items = {}
        for name, f in (("a", a), ("b", b)):
            found = {}
            f.visititems(lambda path, obj: found.__setitem__(path, obj))
            items[name] = found
        for path in sorted(set(items["a"]) | set(items["b"])):
            one_lacks = path not in items["a"] or path not in items["b"]
            if one_lacks and path.split("/")[0] in ADDED_PATHS:
                continue
            if path == "config" and not one_lacks:
                texts = [h5py_text(items[n][path][()]) for n in ("a", "b")]
                if without_energy(texts[0]) != without_energy(texts[1]):
                    problems.append("config differs")
                continue
            if added and path not in items["a"]:
                if notes is not None:
                    notes.append(f"{path} only in b")
                continue
            if path not in items["a"] or path not in items["b"]:
                problems.append(f"{path} only in {'b' if path not in items['a'] else 'a'}")
                continue
            if added and path in ("stats/names", "stats/values"):
                if path == "stats/values" and not same_stats(a, b):
                    problems.append("/stats differs in the counters both files hold")
                continue
            x, y = items["a"][path], items["b"][path]
            if isinstance(x, h5py.Group) != isinstance(y, h5py.Group):
                problems.append(f"{path}: group in one file, dataset in the other")
            elif isinstance(x, h5py.Dataset) and not same_array(np.asarray(x[()]),
                                                                np.asarray(y[()]), added):
                problems.append(f"{path} differs")
    return problems


def run_pairs(old, new, runs, added=False):
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for n, (preset, trace) in enumerate(runs):
            shown = trace
            if trace == "many-small-kernels":
                trace = write_many_kernels(tmp)
            outs = []
            for label, binary in (("old", old), ("new", new)):
                out = os.path.join(tmp, f"{n}-{label}.h5")
                subprocess.run([binary, "run", "-q", "--config", preset, trace, "--out", out],
                               check=True, stdout=subprocess.DEVNULL, cwd=REPO)
                outs.append(out)
            notes = []
            problems = compare_files(*outs, added=added, notes=notes)
            with h5py.File(outs[0], "r") as f:
                shape = f["stats/values"].shape
                per_sm = len(f["per_sm"])
            verdict = "identical" if not problems else "DIFFERENT: " + "; ".join(problems[:5])
            if notes and not problems:
                verdict += f" (new has {len(notes)} more datasets)"
            print(f"{preset:8} {shown}: "
                  f"{shape[0]} kernels x {shape[1]} counters, {per_sm} per-SM counters: {verdict}")
            failed += bool(problems)
    return failed


def main(argv):
    added = bool(argv) and argv[0] == "--added"
    if added:
        argv = argv[1:]
    if len(argv) >= 3 and argv[0] == "--run":
        rest = argv[3:]
        if len(rest) % 2:
            sys.exit("usage: compare_results.py --run OLD NEW [PRESET TRACE]...")
        runs = list(zip(rest[::2], rest[1::2])) or DEFAULT_RUNS
        return 1 if run_pairs(os.path.abspath(argv[1]), os.path.abspath(argv[2]), runs,
                              added) else 0
    if len(argv) == 2:
        notes = []
        problems = compare_files(*argv, added=added, notes=notes)
        for p in problems:
            print(p)
        for n in notes:
            print(f"note: {n}")
        print("identical" if not problems else f"{len(problems)} difference(s)")
        return 1 if problems else 0
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
