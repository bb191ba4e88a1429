#!/usr/bin/env bash
# Sets up and builds sassim, runs the whole test suite, then the data-race check of the
# threaded engine (scripts/tsan.sh: a ThreadSanitizer build in build-tsan/;
# SASSIM_SKIP_TSAN=1 leaves it out) and the memory-error check of the input parsers
# (scripts/asan.sh: an AddressSanitizer + UBSan build in build-asan/; SASSIM_SKIP_ASAN=1).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
ctest --test-dir build --output-on-failure -j"$(nproc)" "$@"
if [[ "${SASSIM_SKIP_TSAN:-0}" != 1 ]]; then
  scripts/tsan.sh
fi
if [[ "${SASSIM_SKIP_ASAN:-0}" != 1 ]]; then
  scripts/asan.sh
fi
