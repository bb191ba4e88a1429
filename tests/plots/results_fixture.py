"""Writes small results files in the layout of docs/RESULTS.md, for the plot tool tests."""

import h5py
import numpy as np
from sassim.hdf5 import write_seal

KERNEL_DTYPE = [
    ("id", "<u4"), ("name", h5py.string_dtype()), ("grid_x", "<u4"), ("grid_y", "<u4"),
    ("grid_z", "<u4"), ("block_x", "<u4"), ("block_y", "<u4"), ("block_z", "<u4"),
    ("start_cycle", "<u8"), ("cycles", "<u8"), ("warp_instructions", "<u8"), ("ipc", "<f8"),
    ("l1_hit_rate", "<f8"), ("l2_hit_rate", "<f8"), ("dram_bytes", "<f8"), ("dram_gbps", "<f8"),
    ("host_seconds", "<f8"),
]

# A GTX 1080-like config as /config holds it (to_text: every field, one per line).
CONFIG_TEXT = """name: "test GPU"
arch: "sm_61"
num_sms: 2
clocks {
  core_mhz: 1000
  l2_mhz: 1000
}
sm {
  sub_cores: 4
  scheduler {
    policy: "gto"
  }
  units {
    fp32 {
      latency_cycles: 6
      initiation_interval_cycles: 1
    }
    fp64 {
      latency_cycles: 64
      initiation_interval_cycles: 32
    }
  }
}
l1 {
  cache_global_loads: false
}
dram {
  type: "GDDR5X"
  channels: 8
  bus_width_bits: 32
  data_rate_mtps: 10000
  latency_ns: 74
}
"""


def write_results(path, kernels, stats, config_text=CONFIG_TEXT, peaks=None):
    """kernels: list of dicts (name, cycles, warp_instructions, dram_bytes; id defaults to
    the position + 1); stats: {counter name: [value per kernel]}; peaks: {name: value} for
    a /peaks table (none when None)."""
    rows = np.zeros(len(kernels), dtype=KERNEL_DTYPE)
    for i, k in enumerate(kernels):
        rows[i]["id"] = k.get("id", i + 1)
        rows[i]["name"] = k["name"]
        rows[i]["cycles"] = k["cycles"]
        rows[i]["warp_instructions"] = k["warp_instructions"]
        rows[i]["dram_bytes"] = k.get("dram_bytes", 0.0)
    names = sorted(stats)
    values = np.array([[stats[n][k] for n in names] for k in range(len(kernels))], dtype=float)
    with h5py.File(path, "w", userblock_size=512) as f:
        f.attrs["sassim_version"] = "0.1.0"
        f.attrs["trace"] = "fixture"
        f.attrs["config_name"] = "fixture"
        f.create_dataset("config", data=config_text, dtype=h5py.string_dtype())
        f.create_dataset("kernels", data=rows)
        f.create_dataset("stats/names", data=names, dtype=h5py.string_dtype())
        f.create_dataset("stats/values", data=values.reshape(len(kernels), len(names)))
        if peaks is not None:
            table = np.zeros(len(peaks), dtype=[("name", h5py.string_dtype()), ("value", "<f8"),
                                                ("unit", h5py.string_dtype())])
            for i, (name, value) in enumerate(peaks.items()):
                table[i] = (name, value, "FLOP/s" if name.startswith("tensor_") else "")
            f.create_dataset("peaks", data=table)
    write_seal(path)
