"""Each kernel's energy split by component from a results file's /energy group
(docs/RESULTS.md, docs/ENERGY.md)."""

import numpy as np
import pandas as pd

from .errors import SassimError
from .hdf5 import check_seal, import_h5py, text


def read_energy(path):
    """Returns a DataFrame [kernels x components] of joules (instructions, tensor,
    register_file, l1, shared, l2, interconnect, dram, sm_static, sm_idle, chip_static),
    indexed by kernel id, with the /kernels columns energy_j, avg_power_w and cycles
    alongside in `df.attrs["kernels"]`. SassimError naming the path when the file has
    no /energy group (its config had no `energy` section) or is not a results file."""
    h5py = import_h5py()
    try:
        f = h5py.File(path, "r")
    except (OSError, ValueError) as e:
        raise SassimError(f"{path}: cannot open as HDF5 ({e}); expected a results file of "
                          "`sassim run --out FILE.h5`") from e
    with f:
        check_seal(path)
        if "energy/joules" not in f:
            raise SassimError(f"{path}: no /energy/joules: the run's config has no `energy` "
                              "section (docs/ENERGY.md)")
        joules = f["energy/joules"]
        parts = [text(p) for p in joules.attrs["components"]]
        values = np.asarray(joules[:], dtype=float).reshape(-1, len(parts))
        table = f["kernels"][:]
    ids = [int(i) for i in table["id"]]
    frame = pd.DataFrame(values, columns=parts, index=pd.Index(ids, name="kernel_id"))
    frame.attrs["kernels"] = pd.DataFrame(
        {"kernel_name": [text(n) for n in table["name"]], "cycles": table["cycles"],
         "energy_j": table["energy_j"], "avg_power_w": table["avg_power_w"]},
        index=frame.index)
    return frame


def power_split(frame):
    """Watts per component: each kernel's joules over its simulated seconds (energy_j /
    avg_power_w)."""
    kernels = frame.attrs["kernels"]
    seconds = kernels["energy_j"] / kernels["avg_power_w"]
    return frame.div(seconds, axis=0)
