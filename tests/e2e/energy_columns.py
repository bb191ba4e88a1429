#!/usr/bin/env python3
"""The energy columns of `sassim run` end to end: on the bundled V100 BFS trace the HDF5
/kernels columns energy_j and avg_power_w follow cycles_ci95_pct, with units; energy_j is the sum of
the /energy split and avg_power_w = energy_j / (cycles / core clock); json and csv print
the same numbers; a config without an energy section (gtx1080) writes NaN and no /energy.
Usage: energy_columns.py SASSIM_BINARY REPO_ROOT"""

import csv
import io
import json
import math
import subprocess
import sys
import tempfile

import h5py
import numpy as np

sassim, root = sys.argv[1], sys.argv[2]
BFS = f"{root}/traces/reference/v100-rodinia-bfs/util/tracer_nvbit/traces/bfs-rodinia-3.1"
GTX = f"{root}/traces/reference/gtx1080-microgpusim/test-apps/vectoradd/traces/vectoradd-100-32-trace"
failures = []


def check(ok, what):
    print(("ok: " if ok else "FAIL: ") + what)
    if not ok:
        failures.append(what)


def run(*args):
    return subprocess.run([sassim, "run", "-q", *args], check=True, capture_output=True,
                          text=True).stdout


with tempfile.TemporaryDirectory() as work:
    out = f"{work}/bfs.h5"
    run(BFS, "-c", "v100", "-o", out)
    with h5py.File(out, "r") as f:
        k = f["kernels"]
        names = list(k.dtype.names)
        units = dict(zip(names, [u.decode() if isinstance(u, bytes) else u
                                 for u in k.attrs["units"]]))
        at = names.index("cycles_ci95_pct") + 1  # after it, before the speed of light's
        check(names[at:at + 4] == ["energy_j", "avg_power_w", "energy_per_flop_j",
                                   "energy_per_dram_byte_j"] and names[at + 4] == "bound_by",
              f"energy columns after cycles_ci95_pct: {names[at:at + 5]}")
        check(units["energy_j"] == "J" and units["avg_power_w"] == "W", "units J and W")
        rows = k[:]
        joules = f["energy/joules"][:]
        parts = [p.decode() if isinstance(p, bytes) else p
                 for p in f["energy/joules"].attrs["components"]]
        check(parts[0] == "instructions" and parts[-1] == "chip_static" and len(parts) == 11,
              f"11 components: {parts}")
        check(np.allclose(joules.sum(axis=1), rows["energy_j"], rtol=1e-12, atol=0),
              "energy_j is the sum of the split")
        seconds = rows["cycles"] / 1530e6
        check(np.allclose(rows["avg_power_w"], rows["energy_j"] / seconds, rtol=1e-12),
              "avg_power_w = energy_j / (cycles / 1530 MHz)")
        # Every kernel pays at least the idle board (80 SMs idle + chip) and, being tiny,
        # stays far below the 300 W board limit.
        idle = 80 * 0.2828 + 32.33
        check(bool(np.all(rows["avg_power_w"] > idle) and np.all(rows["avg_power_w"] < 300)),
              f"BFS kernels between idle ({idle:.1f} W) and the board limit: "
              f"{rows['avg_power_w'].min():.1f}-{rows['avg_power_w'].max():.1f} W")
        idle_j = joules[:, parts.index("sm_idle")]
        check(bool(np.all(idle_j > 0)), "8-CTA kernels on 80 SMs leave SMs idle")
    doc = json.loads(run(BFS, "-c", "v100", "--format", "json"))
    first = doc["kernels"][0]
    check(math.isclose(first["energy_j"], float(rows["energy_j"][0]), rel_tol=0, abs_tol=0),
          "json energy_j equals the HDF5 column bit for bit")
    check(math.isclose(sum(first["energy_split_j"].values()), first["energy_j"], rel_tol=1e-12),
          "json split adds up")
    total = doc["total"]
    check(math.isclose(total["energy_j"], float(rows["energy_j"].sum()), rel_tol=1e-12),
          "json total energy is the kernels' sum")
    table = list(csv.DictReader(io.StringIO(run(BFS, "-c", "v100", "--format", "csv"))))
    check(float(table[0]["avg_power_w"]) == float(rows["avg_power_w"][0]),
          "csv avg_power_w equals the HDF5 column")
    gtx = f"{work}/gtx.h5"
    run(GTX, "-c", "gtx1080", "-o", gtx)
    with h5py.File(gtx, "r") as f:
        check(bool(np.all(np.isnan(f["kernels"][:]["energy_j"]))), "gtx1080: energy_j is NaN")
        check("energy" not in f, "gtx1080: no /energy group")
    doc = json.loads(run(GTX, "-c", "gtx1080", "--format", "json"))
    check(doc["kernels"][0]["energy_j"] is None and "energy_split_j" not in doc["kernels"][0],
          "gtx1080: json energy_j is null, no split")
    tab = run(BFS, "-c", "v100")
    check("pJ/FLOP" in tab and "largest parts" in tab, "the table has the energy block")

if failures:
    print(f"{len(failures)} failed")
    sys.exit(1)
print("all passed")
