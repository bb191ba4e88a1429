#!/usr/bin/env bash
# Memory-error and undefined-behaviour check of the input parsers: builds the fuzz tests
# and the replay driver (tests/replay/sanitizer_replay: the simulator without the command
# line) with AddressSanitizer and UndefinedBehaviorSanitizer in build-asan/, then runs the
# seeded mutation fuzzer (tests/fuzz: traces, presets, listings, sweep specs, Nsight
# Compute CSVs, results files read as `sassim correlate` reads them, multi-GPU ranks and
# collectives) and replays of bundled traces (one multi-GPU). Fails on any report.
#   scripts/asan.sh          # after scripts/setup.sh
set -euo pipefail
cd "$(dirname "$0")/.."
build=build-asan
# (UBSan makes constant evaluation costlier: address_map.cc builds a table at compile time.)
flags="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
flags+=" -fconstexpr-ops-limit=1000000000"
# -O1 -g1 (line tables): reports name file and line, and the build takes half the time of
# -O2 -g.
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSASSIM_BUILD_KERNELS=OFF \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
  -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" >/dev/null
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! cmake --build "$build" -j"$(nproc)" --target sanitizer_replay fuzz_tests >"$log" 2>&1; then
  tail -50 "$log"
  echo "asan: the sanitizer build failed" >&2
  exit 1
fi
# Leak reports are left to the tests' own checks: libprotobuf and libhdf5 keep
# process-lifetime allocations.
export ASAN_OPTIONS="detect_leaks=0 abort_on_error=0 exitcode=66"
export UBSAN_OPTIONS="print_stacktrace=1 halt_on_error=1 exitcode=67"
run() {
  local expect="$1"
  shift
  local rc=0
  "$@" >"$log" 2>&1 || rc=$?
  if grep -q -e "AddressSanitizer" -e "runtime error:" "$log" || ((rc != expect)); then
    cat "$log"
    echo "asan: FAILED (exit $rc, expected $expect): $*" >&2
    exit 1
  fi
  echo "asan: clean: $*"
}
run 0 "$build/tests/fuzz/fuzz_tests"
replay=("$build/tests/replay/sanitizer_replay")
ref=traces/reference
run 0 "${replay[@]}" "$ref/v100-rodinia-bfs/util/tracer_nvbit/traces/bfs-rodinia-3.1" --config v100
run 0 "${replay[@]}" "$ref/a100-flashinfer/test-traces/flashinfer-gemm/traces" --config h100
run 0 "${replay[@]}" tests/data/traces/cluster_dsmem --config h100 --threads 2
run 0 "${replay[@]}" tests/data/traces/system_small --system h200x8 --threads 2
# A bad input is an error, with nothing for the sanitizers to report.
run 1 "${replay[@]}" tests/data/traces/system_small --config a100
