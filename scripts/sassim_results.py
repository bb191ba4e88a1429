"""Loading sassim results for the plot tools (plot_sweep.py, plot_cpi_stack.py,
plot_roofline.py).

Reads a results file of `sassim run --out` (layout in docs/RESULTS.md) and a sweep's
merged table (sweep.csv or sweep.h5), parses the resolved config text stored with the
results, and aggregates the per-SM counters (gpu.sm[<i>].<counter>) the plots need.
Every problem with an input raises ResultsError with a complete message; the tools print
it and exit with status 1.
"""

import math
import re
import sys

try:
    import numpy as np
    import pandas as pd
except ImportError as missing:  # pragma: no cover - depends on the machine
    sys.exit(
        f"{sys.argv[0]}: needs numpy and pandas ({missing}); on Debian: "
        "apt install python3-numpy python3-pandas python3-h5py python3-matplotlib "
        f"(scripts/setup.sh installs them for /usr/bin/python3; this is {sys.executable})"
    )


class ResultsError(Exception):
    """An input file is missing, malformed, or lacks what a plot needs."""


# Columns of the /kernels table (docs/RESULTS.md); in a sweep table id and name become
# kernel_id and kernel_name.
KERNEL_COLUMNS = [
    "kernel_id", "kernel_name", "grid_x", "grid_y", "grid_z", "block_x", "block_y",
    "block_z", "start_cycle", "cycles", "warp_instructions", "ipc", "l1_hit_rate",
    "l2_hit_rate", "dram_bytes", "dram_gbps", "tensor_utilisation", "tensor_tflops",
    "host_seconds",
]
SWEEP_ID_COLUMNS = ["run_index", "run_id", "trace"]
# Warp states in the order Nsight Compute lists them; others follow alphabetically.
WARP_STATE_ORDER = [
    "selected", "not_selected", "wait", "short_scoreboard", "long_scoreboard",
    "math_pipe_throttle", "lg_throttle", "mio_throttle", "barrier", "membar", "drain",
]
FLOP_TYPES = ["fp32", "fp64", "fp16", "tensor"]

_SM_COUNTER = re.compile(r"^gpu\.sm\[(\d+)\]\.(.+)$")


def _import_h5py():
    try:
        import h5py  # noqa: PLC0415 - only the .h5 readers need it
    except ImportError as missing:  # pragma: no cover
        raise ResultsError(
            f"reading .h5 files needs h5py ({missing}); on Debian: apt install python3-h5py"
        ) from missing
    return h5py


def _text(value):
    return value.decode() if isinstance(value, bytes) else str(value)


# ---------------------------------------------------------------- config text

_BLOCK = re.compile(r"^([A-Za-z_]\w*)\s*:?\s*\{\s*(?:#.*)?$")
_CLOSE = re.compile(r"^\}\s*(?:#.*)?$")
_FIELD = re.compile(r'^([A-Za-z_]\w*)\s*:\s*("(?:[^"\\]|\\.)*"|[^\s#"]+)\s*(?:#.*)?$')


def parse_config_text(text, source="config"):
    """Parses a config in Protobuf text format, one field or block per line as
    `sassim config show` and /config write it, into a flat dict {"clocks.core_mhz": 1733,
    "sm.units.fp32.initiation_interval_cycles": 1, "dram.type": "GDDR5X", ...}."""
    values = {}
    path = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if _CLOSE.match(line):
            if not path:
                raise ResultsError(f"{source}:{number}: '}}' without an open block")
            path.pop()
        elif m := _BLOCK.match(line):
            path.append(m.group(1))
        elif m := _FIELD.match(line):
            values[".".join(path + [m.group(1)])] = _config_scalar(m.group(2))
        else:
            raise ResultsError(
                f"{source}:{number}: expected 'name: value', 'name {{' or '}}', found '{line}'"
            )
    if path:
        raise ResultsError(f"{source}: block {'.'.join(path)} is not closed")
    return values


def _config_scalar(text):
    if text.startswith('"'):
        return bytes(text[1:-1], "utf-8").decode("unicode_escape")
    if text in ("true", "false"):
        return text == "true"
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return text  # an enum name


def config_number(config, path, source="config"):
    """The numeric config field at `path`; ResultsError naming it when absent."""
    if path not in config:
        raise ResultsError(f"{source}: the config has no field {path}")
    value = config[path]
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ResultsError(f"{source}: config field {path} is {value!r}, not a number")
    return float(value)


# ---------------------------------------------------------------- results.h5

class Results:
    """One results file: kernels (DataFrame, one row per launch, columns kernel_id,
    kernel_name, cycles, ...), stats (DataFrame [kernels x counter names]), config
    (flat dict), file."""

    def __init__(self, file, kernels, stats, config):
        self.file = file
        self.kernels = kernels
        self.stats = stats
        self.config = config


def read_results(path):
    h5py = _import_h5py()
    try:
        f = h5py.File(path, "r")
    except (OSError, ValueError) as e:
        raise ResultsError(
            f"{path}: cannot open as HDF5 ({e}); expected a results file of "
            "`sassim run --out FILE.h5`"
        ) from e
    with f:
        for needed in ("kernels", "stats/names", "stats/values", "config"):
            if needed not in f:
                raise ResultsError(
                    f"{path}: no /{needed}; expected a results file of `sassim run --out` "
                    "(docs/RESULTS.md)"
                )
        table = f["kernels"][:]
        kernels = pd.DataFrame({name: table[name] for name in table.dtype.names})
        kernels = kernels.rename(columns={"id": "kernel_id", "name": "kernel_name"})
        kernels["kernel_name"] = [_text(n) for n in kernels["kernel_name"]]
        names = [_text(n) for n in f["stats/names"][:]]
        values = np.asarray(f["stats/values"][:], dtype=float).reshape(len(kernels), len(names))
        stats = pd.DataFrame(values, columns=names)
        config = parse_config_text(_text(f["config"][()]), f"{path}:/config")
    return Results(path, kernels, stats, config)


def sum_over_sms(stats, group):
    """{key: per-kernel sum over SMs} of the counters gpu.sm[<i>].<group>.<key>
    (group "warp_cycles" gives the warp states, "flops" the FLOP types)."""
    prefix = group + "."
    sums = {}
    for name in stats.columns:
        m = _SM_COUNTER.match(name)
        if not m or not m.group(2).startswith(prefix):
            continue
        key = m.group(2)[len(prefix):]
        column = stats[name].to_numpy(dtype=float)
        sums[key] = sums[key] + column if key in sums else column.copy()
    return sums


def warp_states(results):
    """DataFrame [kernels x warp states] of warp cycles summed over SMs, states in
    WARP_STATE_ORDER then the rest alphabetically; ResultsError when there are none."""
    sums = sum_over_sms(results.stats, "warp_cycles")
    if not sums:
        raise ResultsError(
            f"{results.file}: no gpu.sm[<i>].warp_cycles.<state> counters; these results come "
            "from a sassim that does not count warp states"
        )
    order = [s for s in WARP_STATE_ORDER if s in sums] + sorted(set(sums) - set(WARP_STATE_ORDER))
    return pd.DataFrame({s: sums[s] for s in order})


def cpi_stack(results):
    """Warp cycles per warp instruction, by state, per kernel: warp_states / the kernel's
    warp_instructions. Kernels with no instruction get NaN."""
    states = warp_states(results)
    insts = results.kernels["warp_instructions"].to_numpy(dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        stack = states.div(np.where(insts > 0, insts, np.nan), axis=0)
    return stack


def flops(results, types=None):
    """Per-kernel FLOPs summed over SMs and over `types` (default all FLOP_TYPES present)."""
    sums = sum_over_sms(results.stats, "flops")
    if not sums:
        raise ResultsError(
            f"{results.file}: no gpu.sm[<i>].flops.<type> counters; these results come from a "
            "sassim that does not count FLOPs"
        )
    wanted = types or sorted(sums)
    unknown = [t for t in wanted if t not in sums]
    if unknown:
        raise ResultsError(
            f"{results.file}: no flops.{unknown[0]} counters (the results have "
            f"{', '.join(sorted(sums))})"
        )
    total = np.zeros(len(results.kernels))
    for t in wanted:
        total += sums[t]
    return total


def roofline_ceilings(config, source="config"):
    """(peak DRAM bytes/s, peak FP32 FLOP/s, core clock Hz) from a resolved config:
    bandwidth = dram.channels * dram.bus_width_bits / 8 * dram.data_rate_mtps * 1e6;
    FP32 = num_sms * sm.sub_cores * (32 / sm.units.fp32.initiation_interval_cycles) * 2 * clock
    (an FMA is two FLOPs)."""
    def n(path):
        return config_number(config, path, source)

    clock_hz = n("clocks.core_mhz") * 1e6
    bandwidth = n("dram.channels") * n("dram.bus_width_bits") / 8 * n("dram.data_rate_mtps") * 1e6
    fp32 = (n("num_sms") * n("sm.sub_cores") * (32 / n("sm.units.fp32.initiation_interval_cycles"))
            * 2 * clock_hz)
    return bandwidth, fp32, clock_hz


def roofline_points(results, types=None):
    """DataFrame per kernel: label, flops, dram_bytes, seconds (cycles / core clock),
    flop_per_s, intensity (FLOP per DRAM byte; inf without DRAM traffic)."""
    _, _, clock_hz = roofline_ceilings(results.config, f"{results.file}:/config")
    total = flops(results, types)
    cycles = results.kernels["cycles"].to_numpy(dtype=float)
    dram = results.kernels["dram_bytes"].to_numpy(dtype=float)
    seconds = cycles / clock_hz
    with np.errstate(divide="ignore", invalid="ignore"):
        flop_per_s = np.where(seconds > 0, total / seconds, 0.0)
        intensity = np.where(dram > 0, total / dram, math.inf)
    return pd.DataFrame({
        "label": kernel_labels(results.kernels),
        "flops": total,
        "dram_bytes": dram,
        "seconds": seconds,
        "flop_per_s": flop_per_s,
        "intensity": intensity,
    })


# ---------------------------------------------------------------- names

def short_kernel_name(name):
    """The function name of an Itanium-mangled kernel name (_Z6vecAddIfEvPT_S1_S1_i ->
    vecAdd, _ZN2ns4gemmEv -> ns::gemm); other names unchanged."""
    if not name.startswith("_Z"):
        return name
    rest = name[2:]
    nested = rest.startswith("N")
    if nested:
        rest = rest[1:]
    parts = []
    while rest and rest[0].isdigit():
        m = re.match(r"(\d+)", rest)
        length = int(m.group(1))
        start = m.end()
        parts.append(rest[start:start + length])
        rest = rest[start + length:]
        if not nested:
            break
    return "::".join(parts) if parts else name


def kernel_labels(kernels):
    """"<id> <short name>" per kernel row."""
    return [f"{int(i)} {short_kernel_name(str(n))}"
            for i, n in zip(kernels["kernel_id"], kernels["kernel_name"])]


# ---------------------------------------------------------------- sweep tables

def read_sweep_table(path):
    """A sweep's merged table (sweep.csv, or sweep.h5 with /columns and /table/<column>)
    as a DataFrame; ResultsError when a needed column is missing."""
    if str(path).endswith(".csv"):
        try:
            table = pd.read_csv(path)
        except (OSError, pd.errors.ParserError, pd.errors.EmptyDataError) as e:
            raise ResultsError(f"{path}: cannot read the sweep table: {e}") from e
    elif str(path).endswith(".h5"):
        h5py = _import_h5py()
        try:
            with h5py.File(path, "r") as f:
                if "columns" not in f or "table" not in f:
                    raise ResultsError(f"{path}: no /columns and /table; expected a sweep.h5")
                names = [_text(n) for n in f["columns"][:]]
                table = pd.DataFrame({
                    n: [_text(v) for v in f["table"][n][:]] if f["table"][n].dtype.kind in "OS"
                    else f["table"][n][:]
                    for n in names
                })
        except OSError as e:
            raise ResultsError(f"{path}: cannot open as HDF5: {e}") from e
    else:
        raise ResultsError(f"{path}: expected a sweep table, sweep.csv or sweep.h5")
    missing = [c for c in ("run_id", "trace", "kernel_id", "kernel_name", "cycles")
               if c not in table.columns]
    if missing:
        raise ResultsError(
            f"{path}: no column {missing[0]}; expected a sweep's merged table (run_id, trace, "
            "kernel_id, kernel_name, <swept parameters>, cycles, ...)"
        )
    return table


def sweep_axes(table):
    """The swept parameter columns: neither identification, kernel table, nor counter
    (gpu.*) columns."""
    fixed = set(SWEEP_ID_COLUMNS) | set(KERNEL_COLUMNS)
    return [c for c in table.columns if c not in fixed and not c.startswith("gpu.")]


def stat_columns(table, pattern):
    """Columns matching `pattern`, where '*' matches any text ("gpu.sm[*].warp_insts")."""
    if pattern in table.columns:
        return [pattern]
    regex = re.compile("^" + ".*".join(re.escape(p) for p in pattern.split("*")) + "$")
    return [c for c in table.columns if regex.match(c)]


# Columns that are ratios or rates: summing over kernels would be wrong.
_MEAN_COLUMNS = {
    "l1_hit_rate", "l2_hit_rate", "dram_gbps", "tensor_utilisation", "tensor_tflops",
}


def sweep_series(table, param, stat, kernel=None):
    """{line label: (x values, y values)}: `stat` against `param`, one line per trace (and
    per value of the other swept parameters). Per run, a stat is summed over the trace's
    kernels (or taken for kernel id `kernel`); ipc is recomputed as warp_instructions /
    cycles; hit rates, dram_gbps and the tensor columns are averaged over kernels. A '*'
    in `stat` sums the matching columns."""
    axes = sweep_axes(table)
    if param not in table.columns:
        raise ResultsError(
            f"no column {param} in the sweep table; swept parameters: {', '.join(axes) or 'none'}"
        )
    columns = stat_columns(table, stat) if stat != "ipc" else ["ipc"]
    if not columns:
        raise ResultsError(f"no column matches '{stat}' in the sweep table")
    rows = table if kernel is None else table[table["kernel_id"] == kernel]
    if rows.empty:
        raise ResultsError(f"no row of kernel id {kernel} in the sweep table")
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
    try:
        [float(v) for v in values]
    except (TypeError, ValueError):
        return False
    return True


# ---------------------------------------------------------------- plotting helpers

def pyplot():
    """matplotlib.pyplot on the file-only Agg backend, with a clear error when missing."""
    try:
        import matplotlib  # noqa: PLC0415

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt  # noqa: PLC0415
    except ImportError as missing:  # pragma: no cover
        raise ResultsError(
            f"plotting needs matplotlib ({missing}); on Debian: apt install python3-matplotlib"
        ) from missing
    return plt


def shorten(text, limit=40):
    return text if len(text) <= limit else text[: limit - 3] + "..."


def run_tool(main):
    """Runs a tool's main(), turning ResultsError into 'PROG: error: ...' and exit 1."""
    try:
        main()
    except ResultsError as e:
        prog = sys.argv[0].rsplit("/", 1)[-1]
        print(f"{prog}: error: {e}", file=sys.stderr)
        sys.exit(1)
