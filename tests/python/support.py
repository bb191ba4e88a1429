"""Paths and helpers shared by the sassim package tests."""

import os
import subprocess

import sassim

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
# One launch of a 32x32 matrix multiply traced on a GTX 1080 (traces/reference/README.md).
TRACE = os.path.join(REPO, "traces", "reference", "gtx1080-microgpusim", "test-apps",
                     "matrixmul", "traces", "matrixmul-32-32-trace")
VECTORADD = os.path.join(REPO, "traces", "reference", "gtx1080-microgpusim", "test-apps",
                         "vectoradd", "traces", "vectoradd-100-32-trace")
PRESETS = os.path.join(REPO, "configs", "presets")


def sassim_cli(*args):
    """Returns the stdout of the sassim binary run with `args`; CalledProcessError on
    failure."""
    return subprocess.run([sassim.find_binary(), *args], capture_output=True, text=True,
                          check=True).stdout


def write_results(path, preset="gtx1080", trace=TRACE):
    """Writes `sassim run TRACE --config PRESET --out PATH` and returns PATH."""
    sassim_cli("run", trace, "--config", preset, "--out", path, "-q")
    return path
