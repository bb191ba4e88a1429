#!/usr/bin/env bash
# scripts/capture-hw.sh cannot capture anything without a GPU; this checks what it can
# here: syntax, --help, its errors, and (--dry-run) the exact commands it would run.
# Usage: capture_hw_test.sh REPO_ROOT
set -uo pipefail
script="$1/scripts/capture-hw.sh"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# shellcheck source=SCRIPTDIR/../expect.sh
source "$(dirname "${BASH_SOURCE[0]}")/../expect.sh"

expect 0 "" -- bash -n "$script"
if command -v shellcheck >/dev/null; then
  expect 0 "" -- shellcheck "$script"
fi
expect 0 "Usage: scripts/capture-hw.sh" -- "$script" --help
expect 0 "TRACER_PATH" -- "$script" --help
expect 1 "no kernel list $work/none.txt" -- "$script" --list "$work/none.txt"
printf 'vectoradd kernels/vectoradd 100 32\nbroken\n' >"$work/bad.txt"
expect 1 "bad.txt:2: expected NAME BINARY" -- "$script" --list "$work/bad.txt" --dry-run
printf '# name binary args\nvectoradd kernels/vectoradd 100 32  # the bundled one\n\nmm /opt/mm\n' >"$work/suite.txt"
expect 1 "TRACER_PATH is not set" -- "$script" --list "$work/suite.txt" --dry-run
expect 1 "no kernel to capture" -- "$script" --list "$work/suite.txt" --dry-run --only nothing
expect 1 "unknown option '--frobnicate'" -- "$script" --frobnicate
export TRACER_PATH=/opt/tracer/tracer_tool.so
expect 0 "cmake --build $work/b --target kernels" -- "$script" --list "$work/suite.txt" --build "$work/b" --out "$work/o" --dry-run
expect 0 "ncu --csv --log-file $work/o/vectoradd/ncu.csv .*gpc__cycles_elapsed.avg.*sm__cycles_elapsed.avg.*gpu__time_duration.sum.* $work/b/kernels/vectoradd 100 32" -- \
  "$script" --list "$work/suite.txt" --build "$work/b" --out "$work/o" --dry-run
expect 0 "TRACES_FOLDER=$work/o/mm/traces LD_PRELOAD=/opt/tracer/tracer_tool.so /opt/mm" -- \
  "$script" --list "$work/suite.txt" --out "$work/o" --dry-run --skip-build
expect 0 "/opt/tracer/traces-processing/post-traces-processing $work/o/vectoradd/traces/kernelslist" -- \
  "$script" --list "$work/suite.txt" --out "$work/o" --dry-run --only vectoradd
[[ ! -e "$work/o" ]] || { echo "FAIL: --dry-run created files"; failures=$((failures + 1)); }

finish
