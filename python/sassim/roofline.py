"""Roofline ceilings of a config and each kernel's place under them."""

import math

import numpy as np
import pandas as pd

from .config_text import config_number
from .counters import flops
from .errors import SassimError
from .names import kernel_labels


def roofline_ceilings(config, source="config"):
    """Returns (peak DRAM bytes/s, peak FP32 FLOP/s, core clock Hz) of a flat config:
    bandwidth = dram.channels * dram.bus_width_bits / 8 * dram.data_rate_mtps * 1e6;
    FP32 = num_sms * sm.sub_cores * (32 / sm.units.fp32.initiation_interval_cycles) * 2 * clock
    (an FMA is two FLOPs). SassimError naming a missing field."""
    def n(path):
        return config_number(config, path, source)

    clock_hz = n("clocks.core_mhz") * 1e6
    bandwidth = n("dram.channels") * n("dram.bus_width_bits") / 8 * n("dram.data_rate_mtps") * 1e6
    fp32 = (n("num_sms") * n("sm.sub_cores") * (32 / n("sm.units.fp32.initiation_interval_cycles"))
            * 2 * clock_hz)
    return bandwidth, fp32, clock_hz


# Tensor operand types of /peaks rows "tensor_<type>" (isa::MmaType names), in order.
TENSOR_TYPES = ["f16", "bf16", "tf32", "fp8", "int8", "int4", "fp64", "binary"]


def tensor_ceilings(results, wanted=None):
    """Returns {operand type: dense peak FLOP/s} of a Results, from its /peaks table (the
    simulator's figures: configs/peaks.h), in TENSOR_TYPES order: every type the config
    has a peak for, or the types in `wanted`. SassimError naming a wanted type that is
    not a tensor operand type or that the config has no peak for; {} for a file without
    /peaks (written before it) when nothing is wanted."""
    have = {t: results.peaks[f"tensor_{t}"] for t in TENSOR_TYPES if f"tensor_{t}" in results.peaks}
    if wanted is None:
        return have
    for t in wanted:
        if t not in TENSOR_TYPES:
            raise SassimError(f"unknown tensor precision '{t}': expected one of "
                              f"{', '.join(TENSOR_TYPES)}")
        if t not in have:
            raise SassimError(
                f"{results.file}: the config has no {t} tensor peak (no sm.tensor_ops entry "
                f"of a dense {t} form); it has: {', '.join(have) or 'none'}")
    return {t: have[t] for t in TENSOR_TYPES if t in wanted}


def group_ceilings(ceilings, rel=0.005):
    """Returns [(names, value)] of {name: value}, names whose values lie within `rel` of
    the first of their group's joined, in the order first seen (one line and one label
    per group on a plot: A100's f16 and bf16 peaks are the same)."""
    groups = []
    for name, value in ceilings.items():
        for names, first in groups:
            if abs(value - first) <= rel * first:
                names.append(name)
                break
        else:
            groups.append(([name], value))
    return [(names, value) for names, value in groups]


def roofline_points(results, types=None):
    """Returns a DataFrame per kernel of a Results: label, flops, dram_bytes, seconds
    (cycles / core clock), flop_per_s, intensity (FLOP per DRAM byte; inf without DRAM
    traffic)."""
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
