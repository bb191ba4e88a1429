#!/usr/bin/env python3
"""Turns the Nsight Compute files of scripts/device-ubench.sh into one record CSV.

  scripts/ncu_record.py MEASURE_DIR... > kernels/ubench/hw_h200.csv
  scripts/ncu_record.py --warp-states MEASURE_DIR... > kernels/ubench/hw_h200_warp_states.csv

Each MEASURE_DIR is an unpacked measure.tgz: base/NAME.csv (clocks locked to base) and
none/NAME.csv (the GPU's own clocks), each `ncu --csv --page raw`; NAME.N.csv is its N-th
measurement. One row per kernel launch: the run's name from the file (a '.gpu' suffix of
kernels/ubench/suite.txt dropped), '#N' added when the program launches more than one
kernel, and the measurement's number per run and clock control (repeat, from 1, in the
order of the folders given, then of N). With --warp-states, from measurements taken with
`--section WarpStateStats`: one row per launch and warp state, the warps in that state
per cycle with an issue (smsp__average_warps_issue_stalled_STATE_per_issue_active.ratio).
"""
import csv
import sys
from pathlib import Path

COLUMNS = [  # (record column, ncu metric, scale)
    ("hw_cycles", "gpc__cycles_elapsed.avg", 1),
    ("hw_cycles_max", "gpc__cycles_elapsed.max", 1),
    ("sm_active_cycles_avg", "sm__cycles_active.avg", 1),
    ("hw_warp_insts", "smsp__inst_executed.sum", 1),
    ("gpc_mhz", "gpc__cycles_elapsed.avg.per_second", 1e-6),
    ("dram_mhz", "dram__cycles_elapsed.avg.per_second", 1e-6),
    ("duration_ns", "gpu__time_duration.sum", 1),
    ("l1_global_ld_requests", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", 1),
    ("l1_global_ld_sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 1),
    ("l1_global_ld_sector_hits", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum", 1),
    ("shared_ld_wavefronts", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", 1),
    ("shared_ld_bank_conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", 1),
    ("l2_read_sectors", "lts__t_sectors_op_read.sum", 1),
    ("l2_read_sector_hits", "lts__t_sectors_op_read_lookup_hit.sum", 1),
    ("l2_write_sectors", "lts__t_sectors_op_write.sum", 1),
    ("dram_read_bytes", "dram__bytes_read.sum", 1),
    ("dram_write_bytes", "dram__bytes_write.sum", 1),
    # Asked for in some sessions only (EXTRA_METRICS of scripts/device-ubench.sh).
    ("l1_global_ld_sector_misses", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum", 1),
    ("xbar_to_l1_read_sectors", "l1tex__m_xbar2l1tex_read_sectors.sum", 1),
    ("l1_to_xbar_write_sectors", "l1tex__m_l1tex2xbar_write_sectors.sum", 1),
    ("l2_from_l1_read_requests", "lts__t_requests_srcunit_tex_op_read.sum", 1),
    ("l2_from_l1_read_sectors", "lts__t_sectors_srcunit_tex_op_read.sum", 1),
    ("l2_from_l1_read_sector_hits", "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum", 1),
]


STALL_PREFIX = "smsp__average_warps_issue_stalled_"
STALL_SUFFIX = "_per_issue_active.ratio"


class RecordError(Exception):
    pass


def number(text, where):
    try:
        return float(text.replace(",", ""))
    except ValueError:
        raise RecordError(f"{where}: expected a number, found '{text}'")


def launches(path):
    """Rows of one ncu raw CSV as dicts; the units row and ==PROF== lines skipped."""
    with open(path, newline="") as f:
        rows = [r for r in csv.reader(f) if r and not r[0].startswith("==")]
    if len(rows) < 2 or "Kernel Name" not in rows[0]:
        raise RecordError(f"{path}: not an `ncu --csv --page raw` file (no 'Kernel Name' header)")
    header = rows[0]
    data = [r for r in rows[1:] if r[0] != ""]  # the units row has an empty ID
    return [(dict(zip(header, r)), line) for line, r in enumerate(data, start=3)]


def format_value(value):
    return f"{value:.2f}".rstrip("0").rstrip(".") if value != int(value) else str(int(value))


def main():
    args = sys.argv[1:]
    warp_states = bool(args) and args[0] == "--warp-states"
    if warp_states:
        args = args[1:]
    if not args:
        raise RecordError("usage: ncu_record.py [--warp-states] MEASURE_DIR...")
    files = []
    for top in map(Path, args):
        found = []
        for clock in ("base", "none"):
            # NAME.csv before NAME.2.csv before NAME.10.csv
            order = lambda p: (p.stem.split(".")[0], int(p.stem.split(".")[-1])
                               if p.stem.split(".")[-1].isdigit() else 1)
            found += sorted((top / clock).glob("*.csv"), key=order)
        if not found:
            raise RecordError(f"{top}: no base/*.csv or none/*.csv (an unpacked measure.tgz?)")
        files += found
    out = csv.writer(sys.stdout, lineterminator="\n")
    if warp_states:
        out.writerow(["run", "kernel", "clock_control", "repeat", "state",
                      "warps_per_issue_active"])
    else:
        out.writerow(["run", "kernel", "clock_control", "repeat"] + [c for c, _, _ in COLUMNS])
    seen = {}
    for path in files:
        rows = launches(path)
        name = path.stem.split(".")[0]
        key = (name, path.parent.name)
        seen[key] = seen.get(key, 0) + 1
        repeat = str(seen[key])
        for i, (row, line) in enumerate(rows):
            run = name if len(rows) == 1 else f"{name}#{i}"
            head = [run, row["Kernel Name"], path.parent.name, repeat]
            if warp_states:
                states = [(m[len(STALL_PREFIX):-len(STALL_SUFFIX)], m) for m in row
                          if m.startswith(STALL_PREFIX) and m.endswith(STALL_SUFFIX)]
                if not states:
                    raise RecordError(f"{path}: no {STALL_PREFIX}*{STALL_SUFFIX} columns "
                                      "(measured without --section WarpStateStats?)")
                for state, metric in sorted(states):
                    value = number(row[metric], f"{path}:{line}: {metric}")
                    out.writerow(head + [state, format_value(value)])
                continue
            values = []
            for column, metric, scale in COLUMNS:
                if metric not in row:
                    values.append("")
                    continue
                values.append(format_value(number(row[metric], f"{path}:{line}: {metric}") * scale))
            out.writerow(head + values)


if __name__ == "__main__":
    try:
        main()
    except RecordError as e:
        print(f"ncu_record: error: {e}", file=sys.stderr)
        sys.exit(1)
