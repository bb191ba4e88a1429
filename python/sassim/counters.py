"""Per-kernel aggregates of the per-SM counters (gpu.sm[<i>].<counter>) of a results
file: warp states, CPI stacks, FLOPs."""

import re

import numpy as np
import pandas as pd

from .errors import SassimError

# Warp states in the order Nsight Compute lists them; others follow alphabetically.
WARP_STATE_ORDER = [
    "selected", "not_selected", "wait", "short_scoreboard", "long_scoreboard",
    "math_pipe_throttle", "lg_throttle", "mio_throttle", "barrier", "membar", "drain",
]
FLOP_TYPES = ["fp32", "fp64", "fp16", "tensor"]

_SM_COUNTER = re.compile(r"^gpu\.sm\[(\d+)\]\.(.+)$")


def sum_over_sms(stats, group):
    """Returns {key: numpy array of per-kernel sums over SMs} of the counters
    gpu.sm[<i>].<group>.<key> of a stats DataFrame (group "warp_cycles" gives the warp
    states, "flops" the FLOP types)."""
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
    """Returns a DataFrame [kernels x warp states] of warp cycles summed over SMs,
    states in WARP_STATE_ORDER then the rest alphabetically; SassimError when the
    results have none."""
    sums = sum_over_sms(results.stats, "warp_cycles")
    if not sums:
        raise SassimError(
            f"{results.file}: no gpu.sm[<i>].warp_cycles.<state> counters; these results come "
            "from a sassim that does not count warp states"
        )
    order = [s for s in WARP_STATE_ORDER if s in sums] + sorted(set(sums) - set(WARP_STATE_ORDER))
    return pd.DataFrame({s: sums[s] for s in order})


def cpi_stack(results):
    """Returns warp cycles per warp instruction, by state, per kernel: warp_states
    divided by the kernel's warp_instructions (NaN for kernels without instructions)."""
    states = warp_states(results)
    insts = results.kernels["warp_instructions"].to_numpy(dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        stack = states.div(np.where(insts > 0, insts, np.nan), axis=0)
    return stack


def flops(results, types=None):
    """Returns a numpy array of per-kernel FLOPs summed over SMs and over `types`
    (default: every FLOP type present); SassimError when a type has no counters."""
    sums = sum_over_sms(results.stats, "flops")
    if not sums:
        raise SassimError(
            f"{results.file}: no gpu.sm[<i>].flops.<type> counters; these results come from a "
            "sassim that does not count FLOPs"
        )
    wanted = types or sorted(sums)
    unknown = [t for t in wanted if t not in sums]
    if unknown:
        raise SassimError(
            f"{results.file}: no flops.{unknown[0]} counters (the results have "
            f"{', '.join(sorted(sums))})"
        )
    total = np.zeros(len(results.kernels))
    for t in wanted:
        total += sums[t]
    return total
