#!/usr/bin/env python3
"""Writes kernels/ubench/warp_paths.txt: the warp classes of each microbenchmark run and
the outcomes of their branches, for scripts/count-warp-insts.py.

A class is a number of warps that take the same path. Loops whose trip count nvcc knows
are counted from the listing; the rules here give the others, whose trips follow from
the launch: a grid-stride loop `for (i = uid; i < n; i += threads)` runs ceil((n - uid) /
threads) times for a thread, and a warp as often as its first lane. #K names the K-th
conditional branch of a listing (scripts/count-warp-insts.py). The GPUs' launches are
those of kernels/ubench/suite.txt: one 1024-thread CTA per SM, 80 SMs (QV100), 108
(A100), 132 (H100), and arrays twice the L2 (6, 40 and 60 MiB: docs/UBENCH.md).
"""
import collections
import math
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
GPUS = {"sm_70": ("QV100", 80, 6), "sm_80": ("A100", 108, 40), "sm_90": ("H100", 132, 60)}
MIB = 1 << 20


def grid_stride_classes(n, threads):
    """{trips: warps} of a grid-stride loop over n items."""
    classes = collections.Counter()
    for warp in range(threads // 32):
        uid = warp * 32
        classes[math.ceil((n - uid) / threads) if uid < n else 0] += 1
    return classes


def lines(arch):
    gpu, sms, l2_mib = GPUS[arch]
    threads = sms * 1024
    out = [f"# {gpu} ({arch}): {sms} CTAs of 1024 threads where a kernel takes one per SM"]

    def emit(kernel, warps, *rules):
        out.append(" ".join([arch, kernel, str(warps), *rules]))

    def loop_rule(branch, trips):
        # A guarded loop: a forward branch skips it when it has no trips.
        return [f"#{branch}={trips - 1}"] if trips > 0 else [f"#{branch - 1}=taken"]

    # Thread 0 builds the ring (the others skip it: #1), then every warp chases.
    emit("ubench_l1_lat", 1)
    emit("ubench_l1_lat", 31, "#1=taken")
    # One warp links the ring: 128 entries a lane, no remainder (#2), 32 x 4 (#5); lanes
    # 1-31 leave, lane 0 chases (counted).
    emit("ubench_l2_lat", 1, "#2=taken", "#5=31")
    # Every thread links ring entries (#2: grid-stride); all warps but warp 0 of the last
    # CTA leave (#3); threads 0-3 there chase 8191 times: 15 in the remainder loop (#5),
    # then 511 x 16 (#7).
    entries = 2 * l2_mib * MIB // 8
    classes = grid_stride_classes(entries - 4, 1024)  # one CTA
    last_trips = math.ceil((entries - 4) / 1024)
    for trips, warps in sorted(classes.items()):
        leaving = warps - (1 if trips == last_trips else 0)
        emit("ubench_mem_lat", leaving, *loop_rule(2, trips), "#3=taken")
    emit("ubench_mem_lat", 1, *loop_rule(2, last_trips), "#5=14", "#7=510")
    # One thread: 4095 ring entries (#2), then the chase (counted).
    emit("ubench_shared_lat", 1, "#2=4094")
    # One CTA of 1024 threads: warm-up loops of (array / 1024) trips (#2).
    emit("ubench_l1_bw_32f", 32, "#2=15")
    emit("ubench_l1_bw_64f", 32, "#2=7")
    emit("ubench_l1_bw_128", 32, "#2=3")
    emit("ubench_l1_bw_32f_unroll", 32, "#2=15")
    emit("ubench_l1_bw_32f_unroll_large", 32, "#2=31")
    # L2: the warm-up covers threads + 2048 x 32 elements, grid-stride (#2).
    for kernel in ("ubench_l2_bw_32f", "ubench_l2_bw_64f"):
        for trips, warps in sorted(grid_stride_classes(threads + 2048 * 32, threads).items()):
            emit(kernel, warps, *loop_rule(2, trips))
    # DRAM: L2 / 8 float4 per array, grid-stride (#2).
    for trips, warps in sorted(grid_stride_classes(2 * l2_mib * MIB // 16, threads).items()):
        emit("ubench_mem_bw", warps, *loop_rule(2, trips))
    emit("ubench_shared_bw", 32, "#2=7")
    emit("ubench_l1_shared_bw", 32, "#2=11")
    emit("ubench_shared_bank_conflicts", 16 * 16 * 8)
    emit("ubench_shared_bank_conflicts_padded", 16 * 16 * 8)
    emit("ubench_max_iops_int32", 32, *(["#1=15"] if arch == "sm_80" else []))
    return out


def main():
    archs = sys.argv[1:] or ["sm_80", "sm_90"]
    text = [line for line in __doc__.splitlines()]
    body = ["# " + line if line else "#" for line in text]
    for arch in archs:
        body += lines(arch)
    path = ROOT / "kernels" / "ubench" / "warp_paths.txt"
    path.write_text("\n".join(body) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
