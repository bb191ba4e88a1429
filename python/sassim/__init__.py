"""sassim results as pandas DataFrames, and the simulator run from Python.

    import sassim
    df = sassim.load_results("r.h5")           # one row per kernel, config fields as columns
    sweep = sassim.load_sweep("out/sweep.csv")  # a sweep's merged table
    df = sassim.run(trace, "gtx1080", sm__scheduler__policy="lrr")

Modules: results (results files), sweep (merged sweep tables), config_text (config
text to {--set path: value}), runner (the binary), counters and roofline (per-kernel
aggregates of the per-SM counters), names (kernel labels), plotting (the plot tools'
shared code). Every problem with an input raises SassimError with a complete message.
"""

try:
    import numpy  # noqa: F401
    import pandas  # noqa: F401
except ImportError as missing:  # pragma: no cover - depends on the machine
    import sys

    raise ImportError(
        f"sassim needs numpy and pandas ({missing}); on Debian: apt install python3-numpy "
        f"python3-pandas python3-h5py (scripts/setup.sh installs them for /usr/bin/python3 "
        f"and its .venv; this is {sys.executable})"
    ) from missing

from .errors import RunError, SassimError
from .results import load_results, read_results
from .runner import find_binary, run
from .sweep import load_sweep

__version__ = "0.1.0"
__all__ = [
    "RunError", "SassimError", "find_binary", "load_results", "load_sweep", "read_results",
    "run",
]
