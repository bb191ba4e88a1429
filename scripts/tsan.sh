#!/usr/bin/env bash
# Data-race check of the threaded engine: builds the engine's tests and the replay driver
# (tests/replay/sanitizer_replay: the simulator without the command line) with
# ThreadSanitizer in build-tsan/, then runs the engine's tile tests and
# threaded replays of bundled traces (per-SM tiles, L2 and DRAM channel tiles, two
# streams) and of kernels of thread block clusters (cluster barriers, distributed shared
# memory over the SM-to-SM network), and the multi-GPU run's players on their threads
# (multigpu/rank_sync.h: its tests and a replay of a small multi-GPU trace). Fails on any
# report.
#   scripts/tsan.sh          # after scripts/setup.sh
# Debian's libprotobuf is built without ThreadSanitizer, and its headers change the
# layout of some types under __SANITIZE_THREAD__: the macro is undefined to keep them
# as the library has them.
set -euo pipefail
cd "$(dirname "$0")/.."
build=build-tsan
# -O1 -g1 (line tables): reports name file and line, and the build takes half the time of
# -O2 -g.
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
  -DCMAKE_CXX_FLAGS="-fsanitize=thread -U__SANITIZE_THREAD__" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=thread" >/dev/null
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! cmake --build "$build" -j"$(nproc)" --target sanitizer_replay ground_tests multigpu_tests >"$log" 2>&1; then
  tail -50 "$log"
  echo "tsan: the ThreadSanitizer build failed" >&2
  exit 1
fi
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1"
run() {
  if ! "$@" >"$log" 2>&1 || grep -q "ThreadSanitizer" "$log"; then
    cat "$log"
    echo "tsan: FAILED: $*" >&2
    exit 1
  fi
  echo "tsan: clean: $*"
}
run "$build/tests/ground/ground_tests" --gtest_filter='EngineTiles.*:UnitCalendar.*:EngineLimit.*'
run "$build/tests/multigpu/multigpu_tests"
replay() { run "$build/tests/replay/sanitizer_replay" "$@"; }
ref=traces/reference
for threads in 2 3; do
  replay "$ref/v100-rodinia-bfs/util/tracer_nvbit/traces/bfs-rodinia-3.1" \
    --config v100 --threads "$threads"
  replay "$ref/a100-flashinfer/test-traces/flashinfer-gemm/traces" \
    --config h100 --threads "$threads"
  replay tests/data/traces/small_workload --config a100 --threads "$threads"
  replay tests/data/traces/cluster_barrier --config h100 --threads "$threads"
  replay tests/data/traces/cluster_dsmem --config h100 --threads "$threads"
  replay tests/data/traces/system_small --system h200x8 --threads "$threads"
done
