#!/usr/bin/env bash
# Captures what `sassim correlate` compares against: for each kernel of the suite, an
# Accel-Sim trace (to replay with `sassim run`) and an Nsight Compute measurement of the
# same run (to pass as `sassim correlate --hw`). Needs a machine with an NVIDIA GPU.
# Run with --help for the recipe; docs/CORRELATION.md explains the whole loop.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$root/build-kernels"
out="$root/out/hw-capture"
list="$root/kernels/suite.txt"
only=""
do_build=1
do_trace=1
do_measure=1
dry_run=0
# ncu's default (base) locks the SM clock for repeatable cycle counts; "none" lets it boost.
clock_control="${NCU_CLOCK_CONTROL:-base}"
metrics="gpc__cycles_elapsed.avg,sm__cycles_elapsed.avg,gpu__time_duration.sum"
metrics+=",gpc__cycles_elapsed.avg.per_second,smsp__inst_executed.sum"

usage() {
  cat <<EOF
Usage: scripts/capture-hw.sh [OPTIONS]

Builds the CUDA kernel suite, traces every kernel with the Accel-Sim NVBit tracer and
measures it with Nsight Compute, writing exactly the files sassim reads.

Options:
  --build DIR       CMake build folder for the kernels (default: build-kernels)
  --out DIR         output folder (default: out/hw-capture)
  --list FILE       kernel list (default: kernels/suite.txt)
  --only A,B        capture only these kernels of the list
  --skip-build      use the binaries already in the build folder
  --skip-trace      measure only
  --skip-measure    trace only
  --dry-run         print the commands instead of running them (no GPU needed)
  -h, --help        this text

The kernel list has one kernel per line: NAME BINARY [ARGS...], where BINARY is a path
relative to the build folder (kernels/vectoradd) or absolute; '#' starts a comment.
  vectoradd   kernels/vectoradd   100 32

Needs: an NVIDIA GPU and driver, the CUDA toolkit (nvcc, for CMake's CUDA language),
Nsight Compute (ncu; NCU=/path/to/ncu to choose one) and, for traces, the Accel-Sim
NVBit tracer (github.com/accel-sim/accel-sim-framework, util/tracer_nvbit: run
install_nvbit.sh, then make):
  TRACER_PATH   the tracer library, .../util/tracer_nvbit/tracer_tool/tracer_tool.so
  POST_TRACES   its post-processor (default: \$(dirname TRACER_PATH)/traces-processing/
                post-traces-processing), which turns kernel-N.trace into kernel-N.traceg
  NCU_CLOCK_CONTROL  ncu --clock-control (default base: the SM clock is locked to base;
                none: let it boost). The measured clock is recorded either way
                (gpc__cycles_elapsed.avg.per_second).

Steps, per kernel NAME of the list:
  1. cmake -S . -B BUILD -DSASSIM_BUILD_KERNELS=ON && cmake --build BUILD --target kernels
  2. trace:    TRACES_FOLDER=OUT/NAME/traces LD_PRELOAD=\$TRACER_PATH BINARY ARGS
               POST_TRACES OUT/NAME/traces/kernelslist    (writes kernelslist.g, *.traceg)
  3. measure:  ncu --csv --log-file OUT/NAME/ncu.csv --metrics $metrics BINARY ARGS
Also OUT/device.txt: nvidia-smi's name, clocks and driver of the GPU measured.

Then, on any machine:
  for d in OUT/*/; do sassim run "\$d/traces" --out "\$d/sim.h5"; done
  sassim correlate --sim OUT/*/sim.h5 --hw OUT/*/ncu.csv --out OUT/correlation
(files are concatenated in the order given, so keep the two globs in the same order).
EOF
}

die() {
  echo "capture-hw: error: $*" >&2
  exit 1
}

# run COMMAND...: runs it, or prints it with --dry-run.
run() {
  if ((dry_run)); then
    printf '+'
    printf ' %q' "$@"
    printf '\n'
  else
    "$@"
  fi
}

while (($#)); do
  case "$1" in
    --build) build="${2:?--build needs a folder}"; shift 2 ;;
    --out) out="${2:?--out needs a folder}"; shift 2 ;;
    --list) list="${2:?--list needs a file}"; shift 2 ;;
    --only) only="${2:?--only needs kernel names}"; shift 2 ;;
    --skip-build) do_build=0; shift ;;
    --skip-trace) do_trace=0; shift ;;
    --skip-measure) do_measure=0; shift ;;
    --dry-run) dry_run=1; shift ;;
    -h | --help) usage; exit 0 ;;
    *) die "unknown option '$1' (see --help)" ;;
  esac
done

[[ -f "$list" ]] || die "no kernel list $list: expected one kernel per line, NAME BINARY [ARGS...] (see --help)"

# Parse the list before touching the GPU, so that a bad line fails early.
names=()
binaries=()
arguments=()
line_number=0
while IFS= read -r line || [[ -n "$line" ]]; do
  line_number=$((line_number + 1))
  line="${line%%#*}"
  read -r -a fields <<<"$line"
  ((${#fields[@]} == 0)) && continue
  ((${#fields[@]} >= 2)) || die "$list:$line_number: expected NAME BINARY [ARGS...], found '${fields[*]}'"
  if [[ -n "$only" && ",$only," != *",${fields[0]},"* ]]; then
    continue
  fi
  names+=("${fields[0]}")
  binary="${fields[1]}"
  [[ "$binary" == /* ]] || binary="$build/$binary"
  binaries+=("$binary")
  arguments+=("${fields[*]:2}")
done <"$list"
((${#names[@]})) || die "$list: no kernel to capture${only:+ (--only $only)}"

if ((!dry_run)); then
  command -v nvidia-smi >/dev/null || die "nvidia-smi not found: this needs a machine with an NVIDIA GPU and driver"
  nvidia-smi -L >/dev/null 2>&1 || die "nvidia-smi sees no GPU"
fi
ncu="${NCU:-ncu}"
if ((do_measure && !dry_run)); then
  command -v "$ncu" >/dev/null || die "Nsight Compute '$ncu' not found: install it or set NCU=/path/to/ncu"
fi
if ((do_trace)); then
  [[ -n "${TRACER_PATH:-}" ]] || die "TRACER_PATH is not set: point it at the Accel-Sim NVBit tracer_tool.so (see --help), or pass --skip-trace"
  post="${POST_TRACES:-$(dirname "$TRACER_PATH")/traces-processing/post-traces-processing}"
  if ((!dry_run)); then
    [[ -f "$TRACER_PATH" ]] || die "TRACER_PATH=$TRACER_PATH: no such file"
    [[ -x "$post" ]] || die "trace post-processor $post not found or not executable (set POST_TRACES)"
  fi
fi

if ((do_build)); then
  if ((!dry_run)); then
    command -v nvcc >/dev/null || [[ -x /usr/local/cuda/bin/nvcc ]] || die "nvcc not found: the kernel suite needs the CUDA toolkit"
  fi
  run cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSASSIM_BUILD_KERNELS=ON
  if ! run cmake --build "$build" --target kernels; then
    die "building target 'kernels' failed; kernels/CMakeLists.txt defines it when CMake finds CUDA"
  fi
fi

run mkdir -p "$out"
if ((!dry_run)); then
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,memory.total \
    --format=csv >"$out/device.txt"
fi

for i in "${!names[@]}"; do
  name="${names[$i]}"
  binary="${binaries[$i]}"
  read -r -a args <<<"${arguments[$i]}"
  ((dry_run)) || [[ -x "$binary" ]] || die "$name: $binary is not an executable (built by --target kernels?)"
  echo "capture-hw: $name"
  run mkdir -p "$out/$name"
  if ((do_trace)); then
    run rm -rf "$out/$name/traces"
    run env TRACES_FOLDER="$out/$name/traces" LD_PRELOAD="$TRACER_PATH" "$binary" "${args[@]}"
    run "$post" "$out/$name/traces/kernelslist"
    if ((!dry_run)); then
      [[ -f "$out/$name/traces/kernelslist.g" ]] || die "$name: the tracer wrote no $out/$name/traces/kernelslist.g"
    fi
  fi
  if ((do_measure)); then
    run "$ncu" --csv --log-file "$out/$name/ncu.csv" --clock-control "$clock_control" \
      --metrics "$metrics" "$binary" "${args[@]}"
  fi
done

cat <<EOF
capture-hw: done, ${#names[@]} kernel(s) in $out. Next:
  for d in $out/*/; do sassim run "\$d/traces" --out "\$d/sim.h5"; done
  sassim correlate --sim $out/*/sim.h5 --hw $out/*/ncu.csv --out $out/correlation
EOF
