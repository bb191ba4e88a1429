"""Reading a results file of `sassim run --out FILE.h5` (layout in docs/RESULTS.md)."""

import numpy as np
import pandas as pd

from .config_text import parse_config_text
from .errors import SassimError
from .hdf5 import check_seal, import_h5py, text

# Columns of the /kernels table (docs/RESULTS.md), with id and name renamed kernel_id
# and kernel_name as in a sweep's merged table.
KERNEL_COLUMNS = [
    "kernel_id", "kernel_name", "grid_x", "grid_y", "grid_z", "block_x", "block_y",
    "block_z", "start_cycle", "cycles", "warp_instructions", "ipc", "l1_hit_rate",
    "l2_hit_rate", "dram_bytes", "dram_gbps", "tensor_utilisation", "tensor_tflops",
    "host_seconds", "sampled", "simulated_warp_instructions", "cycles_ci95_pct",
    "energy_j", "avg_power_w", "energy_per_flop_j", "energy_per_dram_byte_j",
    # Speed of light (docs/RESULTS.md): the binding limit, each limit's and each tensor
    # operand type's percentage of the config's peak, FLOPs per DRAM byte.
    "bound_by", "sol_tensor_pct", "sol_fp32_pct", "sol_fp16_pct", "sol_fp64_pct", "sol_int_pct",
    "sol_issue_pct", "sol_l1_pct", "sol_l2_pct", "sol_dram_pct", "sol_tensor_f16_pct",
    "sol_tensor_bf16_pct", "sol_tensor_tf32_pct", "sol_tensor_fp8_pct", "sol_tensor_int8_pct",
    "sol_tensor_int4_pct", "sol_tensor_fp64_pct", "sol_tensor_binary_pct",
    "arithmetic_intensity",
]
# Root attributes of a results file.
ATTRIBUTES = ["sassim_version", "git_commit", "trace", "config_name"]


class Results:
    """One results file, as read_results returns it: `kernels` (DataFrame, one row per
    launch: kernel_id, kernel_name, cycles, ...), `stats` (DataFrame [kernels x counter
    names]), `config` (flat dict, see parse_config_text), `attributes` (dict of the
    root attributes present), `file` (the path) and `peaks` ({name: value} of /peaks, the
    config's peak rates as the simulator computes them: "tensor_bf16" in FLOP/s, "dram" in
    bytes/s, ...; empty for files written before /peaks)."""

    def __init__(self, file, kernels, stats, config, attributes=None, peaks=None):
        self.file = file
        self.kernels = kernels
        self.stats = stats
        self.config = config
        self.attributes = attributes or {}
        self.peaks = peaks or {}


def read_results(path):
    """Returns the Results of the file at `path`; SassimError naming the path when it is
    not a readable results file (not HDF5, truncated or damaged, or without /kernels,
    /stats or /config)."""
    h5py = import_h5py()
    try:
        f = h5py.File(path, "r")
    except (OSError, ValueError) as e:
        raise SassimError(
            f"{path}: cannot open as HDF5 ({e}); expected a results file of "
            "`sassim run --out FILE.h5`"
        ) from e
    with f:
        check_seal(path)  # a damaged file is refused before HDF5 reads its strings
        for needed in ("kernels", "stats/names", "stats/values", "config"):
            if needed not in f:
                raise SassimError(
                    f"{path}: no /{needed}; expected a results file of `sassim run --out` "
                    "(docs/RESULTS.md)"
                )
        try:
            return _read(f, path)
        except (OSError, KeyError, ValueError, TypeError) as e:
            raise SassimError(
                f"{path}: cannot read the results ({e}); the file is damaged or was not "
                "written by `sassim run --out`"
            ) from e


def _read(f, path):
    table = f["kernels"][:]
    kernels = pd.DataFrame({name: table[name] for name in table.dtype.names})
    kernels = kernels.rename(columns={"id": "kernel_id", "name": "kernel_name"})
    kernels["kernel_name"] = [text(n) for n in kernels["kernel_name"]]
    if "bound_by" in kernels:
        kernels["bound_by"] = [text(n) for n in kernels["bound_by"]]
    names = [text(n) for n in f["stats/names"][:]]
    values = np.asarray(f["stats/values"][:], dtype=float).reshape(len(kernels), len(names))
    stats = pd.DataFrame(values, columns=names)
    config = parse_config_text(text(f["config"][()]), f"{path}:/config")
    attributes = {a: text(f.attrs[a]) for a in ATTRIBUTES if a in f.attrs}
    # A run stopped by SIGINT or SIGTERM holds only the kernels it finished.
    attributes["partial"] = bool(f.attrs["partial"]) if "partial" in f.attrs else False
    peaks = {}
    if "peaks" in f:
        peaks = {text(row["name"]): float(row["value"]) for row in f["peaks"][:]}
    return Results(path, kernels, stats, config, attributes, peaks)


def load_results(path, counters=False):
    """Returns a results file as one tidy DataFrame, one row per kernel launch in launch
    order: the /kernels columns (id and name named kernel_id and kernel_name), then one
    column per field of the resolved config, named by its `--set` path
    ("sm.scheduler.policy", "clocks.core_mhz"; see parse_config_text), the same value
    on every row; with counters=True, then one float column per counter of /stats
    ("gpu.sm[3].warp_insts"). `df.attrs` holds `file` and the root attributes
    (sassim_version, git_commit, trace, config_name; partial, True when the run was
    stopped before its end). SassimError naming the path
    when the file cannot be read."""
    results = read_results(path)
    return tidy_frame(results, counters)


def tidy_frame(results, counters=False):
    """Returns the DataFrame load_results describes for a Results."""
    kernels = results.kernels
    config = {k: [v] * len(kernels) for k, v in results.config.items() if k not in kernels}
    parts = [kernels, pd.DataFrame(config, index=kernels.index)]
    if counters:
        parts.append(results.stats.set_index(kernels.index))
    frame = pd.concat(parts, axis=1)
    frame.attrs = {"file": str(results.file), **results.attributes}
    return frame
