#!/usr/bin/env python3
"""scripts/ncu_record.py on a small session (tests/silicon/data/ncu_session: one ncu raw file
measured twice, with a ==PROF== line and a units row), its --warp-states form
(data/ncu_states) and on files it must refuse."""
import csv
import io
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "ncu_record.py"
DATA = ROOT / "tests" / "silicon" / "data"


def run(*args):
    return subprocess.run([sys.executable, str(SCRIPT), *map(str, args)], capture_output=True,
                          text=True)


def check(condition, what):
    if not condition:
        print(f"FAIL: {what}")
        sys.exit(1)


p = run(DATA / "ncu_session")
check(p.returncode == 0, f"exit 0 on a good session, got {p.returncode}: {p.stderr}")
rows = list(csv.DictReader(io.StringIO(p.stdout)))
check(len(rows) == 6, f"6 rows (3 launches x 2 measurements), got {len(rows)}")
check([r["run"] for r in rows[:3]] == ["launch_window#0", "launch_window#1", "launch_window#2"],
      "launches numbered #0..#2 in file order")
check([r["repeat"] for r in rows] == ["1", "1", "1", "2", "2", "2"], "NAME.csv is repeat 1, NAME.2.csv 2")
check(rows[0]["hw_cycles"] == "2547.62" and rows[3]["hw_cycles"] == "2700.25",
      f"cycles with thousands separators read per file, got {rows[0]['hw_cycles']}, {rows[3]['hw_cycles']}")
check(rows[1]["hw_warp_insts"] == "264", "warp instructions as an integer")
check(rows[0]["gpc_mhz"] == "1474.32", f"clock in MHz, got {rows[0]['gpc_mhz']}")
check(rows[0]["dram_read_bytes"] == "2560", "bytes")
check(rows[0]["l2_read_sectors"] == "", "a metric the file lacks is left empty")
check(rows[0]["clock_control"] == "base" and rows[0]["kernel"] == "probe_empty", "clock and kernel")

p = run(DATA / "no_such_session")
check(p.returncode == 1 and "no base/*.csv or none/*.csv" in p.stderr,
      f"a folder without measurements is an error, got {p.returncode}: {p.stderr}")
p = run(DATA / "ncu_bad")
check(p.returncode == 1 and "x.csv: not an `ncu --csv --page raw` file" in p.stderr,
      f"a file without 'Kernel Name' is an error naming it, got {p.returncode}: {p.stderr}")
p = run(DATA / "ncu_nan")
check(p.returncode == 1 and "k.csv:3: gpc__cycles_elapsed.avg: expected a number, found 'n/a'"
      in p.stderr, f"a value that is not a number names file, line and metric: {p.stderr}")
p = run("--warp-states", DATA / "ncu_states")
check(p.returncode == 0, f"--warp-states: exit 0, got {p.returncode}: {p.stderr}")
states = list(csv.DictReader(io.StringIO(p.stdout)))
check([(r["state"], r["warps_per_issue_active"]) for r in states] ==
      [("barrier", "47.39"), ("long_scoreboard", "15.43")], f"one row per state: {states}")
check(states[0]["run"] == "l1_lat" and states[0]["repeat"] == "1", "run and repeat")
p = run("--warp-states", DATA / "ncu_session")
check(p.returncode == 1 and "measured without --section WarpStateStats?" in p.stderr,
      f"--warp-states on files without the section is an error: {p.stderr}")
print("ncu_record: all checks passed")
