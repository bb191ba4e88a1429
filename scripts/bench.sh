#!/usr/bin/env bash
# Simulation speed and memory on the bundled reference traces and on a workload of
# many small kernels: warp instructions per second, simulated cycles per second, CPU
# milliseconds per kernel launch and peak resident memory, one line per trace.
#   scripts/bench.sh [--quick|--no-silicon] [SASSIM]   one binary (default build/sim/cli/sassim)
#   scripts/bench.sh [--quick|--no-silicon] OLD NEW    two binaries side by side, NEW/OLD ratios
# "warp_insts/s" and "cycles/s" are over the time the binary reports simulating the
# kernels; "cpu_ms/launch" is the whole process's user + system time over its launches;
# "peak_MiB" is its maximum resident set. Each figure is the best of BENCH_REPEATS runs
# (default 3; the two binaries alternate, so both see the same load).
# "many-small-kernels" is 1,000 launches (BENCH_MANY_REPEATS x 8) of the eight PyTorch
# helper kernels of the a100 GEMM trace (one CTA each), listed in a kernelslist.g
# written at bench time. The "h200:" rows are the silicon regression's memory-bound runs
# (the record's H100 programs on the h200 preset at 1,500 MHz, the L2 emptied first,
# the listing's control bits), captured at bench time by the last binary given: at the
# regression's sizes, or a tenth of the work with --quick (as text, which every binary
# reads); --no-silicon leaves them out. Binaries run on one host thread
# (SASSIM_THREADS=1, which binaries without threads ignore; BENCH_THREADS=N for
# another count); scripts/bench-threads.sh measures the scaling with threads.
set -euo pipefail
export SASSIM_THREADS="${BENCH_THREADS:-1}"
cd "$(dirname "$0")/.."
silicon=full
case "${1:-}" in
  --quick) silicon=quick; shift ;;
  --no-silicon) silicon=off; shift ;;
esac
if (($# == 2)); then
  binaries=("$1" "$2")
else
  binaries=("${1:-build/sim/cli/sassim}")
fi
repeats="${BENCH_REPEATS:-3}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

gemm="$PWD/traces/reference/a100-flashinfer/test-traces/flashinfer-gemm/traces"
mkdir -p "$work/many"
for ((i = 0; i < ${BENCH_MANY_REPEATS:-125}; i++)); do
  for k in 1 2 3 4 5 6 7 8; do echo "$gemm/kernel-$k.traceg"; done
done >"$work/many/kernelslist.g"

traces=(
  "v100 traces/reference/v100-rodinia-bfs/util/tracer_nvbit/traces/bfs-rodinia-3.1"
  "rtx2060 traces/reference/rtx-turing-vecadd-v1.2/util/tracer_nvbit/traces/GPU_0"
  "a100 traces/reference/a100-flashinfer/test-traces/flashinfer-singledecode/traces"
  "a100 traces/reference/a100-flashinfer/test-traces/flashinfer-prefill/traces"
  "a100 traces/reference/a100-flashinfer/test-traces/flashinfer-gemm/traces"
  "gtx1080 traces/reference/gtx1080-microgpusim/test-apps/matrixmul/traces/matrixmul-32-32-trace"
  "a100 $work/many/kernelslist.g"
)

# name kernel full-size-values quick-size-values
silicon_runs=(
  "mem_bw ubench_mem_bw 132,31457280 132,3145728"
  "mem_lat ubench_mem_lat 15728640 1572864"
  "l2_bw_32f ubench_l2_bw_32f 264,512 264,64"
)
declare -A extra_args=()
if [[ "$silicon" != off ]]; then
  for run in "${silicon_runs[@]}"; do
    read -r name kernel full quick <<<"$run"
    values="$full"
    [[ "$silicon" == quick ]] && values="$quick"
    "${binaries[-1]}" capture "$kernel" ${values//,/ } --listing kernels/sass/sm_90 --plain \
      -o "$work/h200-$name" -q >/dev/null
    traces+=("h200 $work/h200-$name")
    extra_args["$work/h200-$name"]="--sass kernels/sass/sm_90/$kernel.sass \
      --set simulation.flush_l2_before_kernels=true --set clocks.core_mhz=1500"
  done
fi

# One run: prints "warp_insts launches insts_per_s cycles_per_s cpu_ms_per_launch peak_MiB".
measure() {
  local sassim="$1" preset="$2" path="$3" out
  # shellcheck disable=SC2086 # the extra arguments are words
  out="$(/usr/bin/time -f "cpu %U %S" "$sassim" run -q --config "$preset" "$path" \
    ${extra_args[$path]:-} 2>&1)"
  awk '
    /^simulated / { insts = $2; gsub(/\(/, "", $8); ips = $8; cps = $11 }
    /total \(/ { for (i = 1; i <= NF; i++) if ($i ~ /^\(/) { launches = substr($i, 2) } }
    /^peak memory/ { mem = $3 }
    /^cpu / { cpu = $2 + $3 }
    END { printf "%s %s %s %s %.3f %s\n", insts, launches, ips, cps, 1000 * cpu / launches, mem }
  ' <<<"$out"
}

label() {
  if [[ "$1" == "$work/h200-"* ]]; then echo "h200:${1#"$work/h200-"}"
  elif [[ "$1" == "$work/"* ]]; then echo "many-small-kernels"; else
    echo "$(basename "$(dirname "$1")")/$(basename "$1")"
  fi
}

if ((${#binaries[@]} == 1)); then
  printf "%-40s %-8s %8s %11s %13s %11s %13s %9s\n" trace preset launches warp_insts \
    "warp_insts/s" "cycles/s" "cpu_ms/launch" peak_MiB
else
  printf "%-40s %-8s %8s %11s %13s %13s %7s %10s %10s %7s %8s %8s\n" trace preset launches \
    warp_insts "old_insts/s" "new_insts/s" ratio "old_ms/l" "new_ms/l" ratio "old_MiB" "new_MiB"
fi
for entry in "${traces[@]}"; do
  read -r preset path <<<"$entry"
  declare -a best_ips=() best_cps=() best_ms=() best_mem=()
  for ((i = 0; i < repeats; i++)); do
    for b in "${!binaries[@]}"; do
      read -r insts launches ips cps ms mem <<<"$(measure "${binaries[$b]}" "$preset" "$path")"
      # Keep the fastest of the repeats: the least disturbed by other load.
      if [[ -z "${best_ips[$b]:-}" ]] || ((ips > best_ips[b])); then
        best_ips[b]="$ips"
        best_cps[b]="$cps"
      fi
      if [[ -z "${best_ms[$b]:-}" ]] || awk -v a="$ms" -v b="${best_ms[$b]}" 'BEGIN { exit !(a < b) }'; then
        best_ms[b]="$ms"
      fi
      if [[ -z "${best_mem[$b]:-}" ]] || awk -v a="$mem" -v b="${best_mem[$b]}" 'BEGIN { exit !(a < b) }'; then
        best_mem[b]="$mem"
      fi
    done
  done
  if ((${#binaries[@]} == 1)); then
    printf "%-40s %-8s %8s %11s %13s %11s %13s %9s\n" "$(label "$path")" "$preset" "$launches" \
      "$insts" "${best_ips[0]}" "${best_cps[0]}" "${best_ms[0]}" "${best_mem[0]}"
  else
    printf "%-40s %-8s %8s %11s %13s %13s %7s %10s %10s %7s %8s %8s\n" "$(label "$path")" \
      "$preset" "$launches" "$insts" "${best_ips[0]}" "${best_ips[1]}" \
      "$(awk -v a="${best_ips[1]}" -v b="${best_ips[0]}" 'BEGIN { printf "%.2fx", a / b }')" \
      "${best_ms[0]}" "${best_ms[1]}" \
      "$(awk -v a="${best_ms[0]}" -v b="${best_ms[1]}" 'BEGIN { printf "%.2fx", a / b }')" \
      "${best_mem[0]}" "${best_mem[1]}"
  fi
  unset best_ips best_cps best_ms best_mem
done

# The cost of a launch itself: CPU seconds of 2,000 launches of the trace's smallest
# kernel (kernel-8: one CTA, 48 warp instructions) minus those of 1,000, over 1,000. It
# bounds the fixed cost per launch from above (each launch's short simulation included;
# start-up cancels out). Best of the repeats.
for n in 1000 2000; do
  mkdir -p "$work/launch-$n"
  for ((i = 0; i < n; i++)); do echo "$gemm/kernel-8.traceg"; done >"$work/launch-$n/kernelslist.g"
done
cpu_seconds() {
  /usr/bin/time -f "cpu %U %S" "$1" run -q --config a100 "$2" 2>&1 >/dev/null |
    awk '/^cpu / { print $2 + $3 }'
}
declare -a launch_ms=()
for ((i = 0; i < repeats; i++)); do
  for b in "${!binaries[@]}"; do
    one="$(cpu_seconds "${binaries[$b]}" "$work/launch-1000")"
    two="$(cpu_seconds "${binaries[$b]}" "$work/launch-2000")"
    ms="$(awk -v a="$one" -v b="$two" 'BEGIN { printf "%.3f", (b - a) }')"  # s / 1000 = ms
    if [[ -z "${launch_ms[$b]:-}" ]] || awk -v a="$ms" -v b="${launch_ms[$b]}" 'BEGIN { exit !(a < b) }'; then
      launch_ms[b]="$ms"
    fi
  done
done
if ((${#binaries[@]} == 1)); then
  echo "cpu ms per launch (2,000 - 1,000 launches of a 48-instruction kernel, a100): ${launch_ms[0]}"
else
  echo "cpu ms per launch (2,000 - 1,000 launches of a 48-instruction kernel, a100): old ${launch_ms[0]}, new ${launch_ms[1]}"
fi
