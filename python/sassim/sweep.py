"""Reading a sweep's merged table (sweep.csv or sweep.h5 of `sassim sweep`, layout in
docs/SWEEPS.md) and drawing series from it."""

import os
import re

import pandas as pd

from .config_text import parse_config_text
from .errors import SassimError
from .hdf5 import import_h5py, text
from .results import KERNEL_COLUMNS

SWEEP_ID_COLUMNS = ["run_index", "run_id", "trace"]
_NEEDED = ["run_id", "trace", "kernel_id", "kernel_name", "cycles"]


def read_sweep_table(path):
    """Returns a sweep's merged table (sweep.csv, or sweep.h5 with /columns and
    /table/<column>) as a DataFrame, columns in the file's order; SassimError naming
    the path when it cannot be read or lacks a needed column."""
    if str(path).endswith(".csv"):
        try:
            table = pd.read_csv(path)
        except (OSError, pd.errors.ParserError, pd.errors.EmptyDataError) as e:
            raise SassimError(f"{path}: cannot read the sweep table: {e}") from e
    elif str(path).endswith(".h5"):
        table = _read_sweep_h5(path)
    else:
        raise SassimError(f"{path}: expected a sweep table, sweep.csv or sweep.h5")
    missing = [c for c in _NEEDED if c not in table.columns]
    if missing:
        raise SassimError(
            f"{path}: no column {missing[0]}; expected a sweep's merged table (run_id, trace, "
            "kernel_id, kernel_name, <swept parameters>, cycles, ...)"
        )
    return table


def _read_sweep_h5(path):
    h5py = import_h5py()
    try:
        with h5py.File(path, "r") as f:
            if "columns" not in f or "table" not in f:
                raise SassimError(f"{path}: no /columns and /table; expected a sweep.h5")
            names = [text(n) for n in f["columns"][:]]
            columns = {}
            for n in names:
                data = f["table"][n]
                columns[n] = [text(v) for v in data[:]] if data.dtype.kind in "OS" else data[:]
            return pd.DataFrame(columns)
    except (OSError, KeyError, ValueError) as e:
        raise SassimError(f"{path}: cannot open as HDF5: {e}") from e


def load_sweep(path, config=False):
    """Returns a sweep's merged table (sweep.csv or sweep.h5) as a DataFrame, one row
    per run and kernel: run_index, run_id, trace, one column per swept parameter named
    by its `--set` path ("sm.scheduler.policy"), the kernel columns (kernel_id,
    kernel_name, cycles, ...) and one column per counter (gpu.*). With config=True,
    each run's whole resolved config (runs/<run_id>/config.txtpb beside the table) is
    added, one column per field not already there, as load_results names them.
    `df.attrs["file"]` is the path. SassimError naming the path on bad input."""
    table = read_sweep_table(path)
    if config:
        table = _with_run_configs(table, os.path.dirname(os.path.abspath(path)))
    table.attrs = {"file": str(path)}
    return table


def _with_run_configs(table, folder):
    configs = {}
    for run_id in table["run_id"].unique():
        file = os.path.join(folder, "runs", str(run_id), "config.txtpb")
        try:
            with open(file, encoding="utf-8") as f:
                configs[run_id] = parse_config_text(f.read(), file)
        except OSError as e:
            raise SassimError(
                f"{file}: cannot read the run's config ({e.strerror}); config=True needs the "
                "sweep's output folder (runs/<id>/config.txtpb beside the table)"
            ) from e
    fields = []
    for values in configs.values():
        fields += [k for k in values if k not in table.columns and k not in fields]
    added = pd.DataFrame(
        {k: [configs[r].get(k) for r in table["run_id"]] for k in fields}, index=table.index
    )
    return pd.concat([table, added], axis=1)


def sweep_axes(table):
    """Returns the swept parameter columns of a merged table: those that are neither
    identification, kernel table, nor counter (gpu.*) columns."""
    fixed = set(SWEEP_ID_COLUMNS) | set(KERNEL_COLUMNS)
    return [c for c in table.columns if c not in fixed and not c.startswith("gpu.")]


def stat_columns(table, pattern):
    """Returns the columns matching `pattern`, where '*' matches any text
    ("gpu.sm[*].warp_insts")."""
    if pattern in table.columns:
        return [pattern]
    regex = re.compile("^" + ".*".join(re.escape(p) for p in pattern.split("*")) + "$")
    return [c for c in table.columns if regex.match(c)]


# Columns that are ratios or rates: summing over kernels would be wrong.
_MEAN_COLUMNS = {
    "l1_hit_rate", "l2_hit_rate", "dram_gbps", "tensor_utilisation", "tensor_tflops",
    "arithmetic_intensity",
} | {c for c in KERNEL_COLUMNS if c.startswith("sol_")}


def sweep_series(table, param, stat, kernel=None):
    """Returns {line label: (x values, y values)}: `stat` against `param`, one line per
    trace (and per value of the other swept parameters). Per run, a stat is summed over
    the trace's kernels (or taken for kernel id `kernel`); ipc is recomputed as
    warp_instructions / cycles; hit rates, dram_gbps and the tensor columns are averaged
    over kernels. A '*' in `stat` sums the matching columns. SassimError naming a
    missing column or kernel."""
    axes = sweep_axes(table)
    if param not in table.columns:
        raise SassimError(
            f"no column {param} in the sweep table; swept parameters: {', '.join(axes) or 'none'}"
        )
    columns = stat_columns(table, stat) if stat != "ipc" else ["ipc"]
    if not columns:
        raise SassimError(f"no column matches '{stat}' in the sweep table")
    rows = table if kernel is None else table[table["kernel_id"] == kernel]
    if rows.empty:
        raise SassimError(f"no row of kernel id {kernel} in the sweep table")
    others = [a for a in axes if a != param]
    series = {}
    for _, run in rows.groupby("run_id", sort=False):
        if stat == "ipc":
            cycles = run["cycles"].sum()
            y = run["warp_instructions"].sum() / cycles if cycles else float("nan")
        elif len(columns) == 1 and columns[0] in _MEAN_COLUMNS:
            y = run[columns[0]].mean()
        else:
            y = float(run[columns].to_numpy(dtype=float).sum())
        first = run.iloc[0]
        label = ", ".join([str(first["trace"])] + [f"{o}={first[o]}" for o in others])
        xs, ys = series.setdefault(label, ([], []))
        xs.append(first[param])
        ys.append(y)
    return {label: _sorted_by_x(xs, ys) for label, (xs, ys) in series.items()}


def _sorted_by_x(xs, ys):
    try:
        keys = [float(x) for x in xs]
    except (TypeError, ValueError):
        return list(xs), list(ys)  # categorical: keep the table's order
    order = sorted(range(len(xs)), key=lambda i: keys[i])
    return [keys[i] for i in order], [ys[i] for i in order]


def is_numeric(values):
    """Returns whether every value reads as a float."""
    try:
        [float(v) for v in values]
    except (TypeError, ValueError):
        return False
    return True
