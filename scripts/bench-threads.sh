#!/usr/bin/env bash
# Scaling of one binary with host threads (`sassim run --threads N`) on the silicon
# regression's memory-bound h200 runs and the bundled V100 BFS trace: warp
# instructions per second of wall time (the binary's own kernel timer) at each thread
# count, and the speed-up over the first count. Each figure is the best of
# BENCH_REPEATS runs (default 3; the counts alternate, so all see the same load).
#   scripts/bench-threads.sh [--quick] [SASSIM] [-- COUNT...]   (default counts: 1 2)
# --quick captures a tenth of the work, as scripts/bench.sh does.
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0
if [[ "${1:-}" == --quick ]]; then
  quick=1
  shift
fi
sassim="build/sim/cli/sassim"
if (($#)) && [[ "$1" != -- ]]; then
  sassim="$1"
  shift
fi
[[ "${1:-}" == -- ]] && shift
counts=("$@")
((${#counts[@]})) || counts=(1 2)
repeats="${BENCH_REPEATS:-3}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

runs=("v100 traces/reference/v100-rodinia-bfs/util/tracer_nvbit/traces/bfs-rodinia-3.1 -")
# name kernel full-size-values quick-size-values (as scripts/bench.sh)
for run in "mem_bw ubench_mem_bw 132,31457280 132,3145728" \
  "mem_lat ubench_mem_lat 15728640 1572864" "l2_bw_32f ubench_l2_bw_32f 264,512 264,64"; do
  read -r name kernel full quick_values <<<"$run"
  values="$full"
  ((quick)) && values="$quick_values"
  "$sassim" capture "$kernel" ${values//,/ } --listing kernels/sass/sm_90 -o "$work/$name" -q \
    >/dev/null
  runs+=("h200 $work/$name $kernel")
done

printf "%-16s %-8s %11s" trace preset warp_insts
for n in "${counts[@]}"; do printf " %12s" "${n}t_insts/s"; done
for n in "${counts[@]:1}"; do printf " %8s" "${n}t/${counts[0]}t"; done
printf "\n"
for entry in "${runs[@]}"; do
  read -r preset path kernel <<<"$entry"
  extra=()
  if [[ "$kernel" != - ]]; then
    extra=(--sass "kernels/sass/sm_90/$kernel.sass" --set simulation.flush_l2_before_kernels=true
      --set clocks.core_mhz=1500)
  fi
  declare -A best=()
  insts=0
  for ((i = 0; i < repeats; i++)); do
    for n in "${counts[@]}"; do
      read -r insts ips <<<"$("$sassim" run -q --config "$preset" "$path" "${extra[@]}" \
        --threads "$n" | awk '/^simulated / { gsub(/\(/, "", $8); print $2, $8 }')"
      if [[ -z "${best[$n]:-}" ]] || ((ips > best[$n])); then best[$n]="$ips"; fi
    done
  done
  label="$(basename "$path")"
  [[ "$kernel" != - ]] && label="h200:$label"
  printf "%-16s %-8s %11s" "$label" "$preset" "$insts"
  for n in "${counts[@]}"; do printf " %12s" "${best[$n]}"; done
  for n in "${counts[@]:1}"; do
    printf " %8s" "$(awk -v a="${best[$n]}" -v b="${best[${counts[0]}]}" 'BEGIN { printf "%.2fx", a / b }')"
  done
  printf "\n"
  unset best
done
