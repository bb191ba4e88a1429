#!/usr/bin/env bash
# Configs that cannot run as asked are refused at load, naming the fields: a deadlock
# limit below the config's longest fixed wait.
# Usage: config_limits.sh SASSIM_BINARY REPO_ROOT
set -uo pipefail
sassim="$1"
root="$2"
trace="$root/tests/data/cli/vectoradd_sm80"

# shellcheck source=SCRIPTDIR/../expect.sh
source "$(dirname "${BASH_SOURCE[0]}")/../expect.sh"

# simulation.deadlock_cycles: a100's grid launch alone is 2,010.8 core cycles.
floor="simulation.deadlock_cycles = 100 is not above the longest fixed wait of the config, 2010.8 core cycles, set by sm.grid_launch_cycles = 230 \+ sm.grid_launch_ns = 1263 \(clocks.core_mhz = 1410\): expected at least 2011"
expect 1 "$floor" -- "$sassim" config show a100 --set simulation.deadlock_cycles=100
expect 1 "$floor" -- "$sassim" run -q -c a100 --set simulation.deadlock_cycles=100 "$trace"
expect 1 "expected at least 2011" -- "$sassim" run -q -c a100 --set simulation.deadlock_cycles=2010 "$trace"
expect 0 "total \(1 kernels\)" -- "$sassim" run -q -c a100 --set simulation.deadlock_cycles=2011 "$trace"
finish
