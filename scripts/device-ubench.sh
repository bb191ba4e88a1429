#!/usr/bin/env bash
# One measuring session on a machine with an NVIDIA GPU, built for a short lease: runs the
# microbenchmark runs of kernels/ubench/suite.txt (the H100-sized lines: 132 SMs), the
# Nsight Compute window probe (kernels/probes/launch_window.cu) and the reference suite of
# kernels/suite.txt under Nsight Compute, and packs everything into OUT/measure.tgz:
#   device.txt            nvidia-smi's name, clocks, driver; ncu --version
#   plain.log             each program run once without a profiler (its own timed cycles)
#   base/NAME.csv         ncu --csv --page raw, clocks locked to base (ncu's default)
#   none/NAME.csv         the DRAM-bound runs again with --clock-control none
#   metrics.txt           the metrics asked for that this GPU's ncu knows
# Usage: scripts/device-ubench.sh OUT [DEADLINE_SECONDS [ONLY [CLOCKS [REPEAT]]]]
#   ONLY     regular expression on run names: measure only these, under ncu only
#   CLOCKS   clock controls for them (default "base"; "base none" measures both)
#   REPEAT   measurements of each (default 1; files NAME.csv, NAME.2.csv, ...)
# Programs come from build-kernels/ (`cmake --build build-kernels --target
# kernels_programs`); the probe is built here with nvcc if build-kernels/probes/launch_window
# is missing. DEVICE_RUNS=FILE measures the runs listed there instead (same format as
# kernels/suite.txt; kernels/probes/chase_sweep.txt is one); EXTRA_METRICS="a.sum b.sum"
# asks ncu for more metrics, NCU_ARGS for more options ("--section WarpStateStats").
set -uo pipefail

out="${1:?usage: device-ubench.sh OUT [DEADLINE_SECONDS [ONLY [CLOCKS [REPEAT]]]]}"
deadline=$((SECONDS + ${2:-420}))
only="${3:-}"
clocks="${4:-base}"
repeat="${5:-1}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="$root/build-kernels"
work="$(mktemp -d)"
ncu="${NCU:-ncu}"

core="gpc__cycles_elapsed.avg gpc__cycles_elapsed.max sm__cycles_elapsed.avg sm__cycles_active.avg"
core+=" smsp__inst_executed.sum gpc__cycles_elapsed.avg.per_second"
core+=" dram__cycles_elapsed.avg.per_second gpu__time_duration.sum"
detail="l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
detail+=" l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum"
detail+=" l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"
detail+=" lts__t_sectors_op_read.sum lts__t_sectors_op_read_lookup_hit.sum lts__t_sectors_op_write.sum"
detail+=" dram__bytes_read.sum dram__bytes_write.sum"
detail+=" ${EXTRA_METRICS:-}"  # more, space-separated (the unknown ones are dropped)

{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,clocks.max.mem,memory.total \
    --format=csv
  "$ncu" --version
} >"$work/device.txt" 2>&1

# Keep the metrics this ncu knows (an unknown name fails the whole run).
"$ncu" --query-metrics >"$work/known.txt" 2>&1
metrics=()
for m in $core $detail; do
  if grep -q "^${m%%.*} " "$work/known.txt"; then metrics+=("$m"); fi
done
[[ ${#metrics[@]} -gt 0 ]] || metrics=($core)
(IFS=,; echo "${metrics[*]}") >"$work/metrics.txt"
metric_list="$(cat "$work/metrics.txt")"

# lines FILE: NAME BINARY ARGS... for every run of the list that this GPU takes.
lines() {
  sed -e 's/#.*//' "$1" | awk 'NF >= 2 && $1 !~ /\.(qv100|a100)$/'
}
runs="$work/runs.txt"
if [[ -n "${DEVICE_RUNS:-}" ]]; then  # another list of runs, NAME BINARY ARGS... per line
  lines "$DEVICE_RUNS" >"$runs"
else
  {
    lines "$root/kernels/ubench/suite.txt"
    echo "launch_window probes/launch_window"
    lines "$root/kernels/suite.txt"
  } >"$runs"
fi
if [[ -n "$only" ]]; then
  awk -v re="$only" '$1 ~ re' "$runs" >"$runs.only" && mv "$runs.only" "$runs"
fi

if [[ ! -x "$bin/probes/launch_window" ]]; then
  mkdir -p "$bin/probes"
  nvcc -O3 -arch=native -o "$bin/probes/launch_window" "$root/kernels/probes/launch_window.cu" \
    >>"$work/plain.log" 2>&1
fi

# Each program once without a profiler: its own output (timed cycles, checks).
[[ -n "$only" ]] || while read -r name binary args; do
  echo "== $name" >>"$work/plain.log"
  timeout 60 "$bin/$binary" $args </dev/null >>"$work/plain.log" 2>&1 || echo "exit $?" >>"$work/plain.log"
done <"$runs"

profile() {  # profile CLOCK_CONTROL NAME BINARY ARGS...
  local clock="$1" name="$2" binary="$3"
  shift 3
  mkdir -p "$work/$clock"
  if ((SECONDS > deadline)); then
    echo "skipped $clock $name: past the deadline" >>"$work/skipped.txt"
    return
  fi
  # shellcheck disable=SC2086
  timeout 90 "$ncu" --csv --page raw --clock-control "$clock" --metrics "$metric_list" ${NCU_ARGS:-} \
    --log-file "$work/$clock/$name.csv" "$bin/$binary" "$@" </dev/null >>"$work/ncu.log" 2>&1 ||
    echo "ncu $clock $name: exit $?" >>"$work/ncu.log"
}
for ((i = 1; i <= repeat; i++)); do
  suffix=""
  ((i > 1)) && suffix=".$i"
  for clock in $clocks; do
    while read -r name binary args; do
      echo "profiling $name, clock-control $clock ($SECONDS s)"
      profile "$clock" "$name$suffix" "$binary" $args
    done <"$runs"
  done
done
# The DRAM-bound runs at the clocks the GPU picks itself.
[[ -n "$only" ]] || grep -E '^(mem_bw|mem_lat|chase_dram|stream_copy|stream_triad|l2_lat)' "$runs" |
  while read -r name binary args; do
    echo "profiling $name, clock-control none ($SECONDS s)"
    profile none "$name" "$binary" $args
  done

rm -f "$work/known.txt"
tar czf "$out/measure.tgz" -C "$work" .
echo "device-ubench: done in $SECONDS s"
