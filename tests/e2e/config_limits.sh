#!/usr/bin/env bash
# Configs that cannot run as asked are refused at load, naming the fields: a deadlock
# limit below the config's longest fixed wait; a model that needs more memory than the
# limit (16 GiB, or SASSIM_MEMORY_LIMIT_GB).
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

# The memory estimate: a 1 TiB L2 (768 GiB of tags), a 16 MiB L1i of 16-byte lines on
# 1,024 SMs (24 GiB); every preset fits; a raised limit accepts (config show only: a run
# would take that memory).
l2="needs an estimated 768.0 GiB of memory, more than the limit of 16.0 GiB \(SASSIM_MEMORY_LIMIT_GB=769 raises it\); most of it: l2.size_bytes = 1099511627776"
expect 1 "$l2" -- env -u SASSIM_MEMORY_LIMIT_GB "$sassim" config show gtx1080 --set l2.size_bytes=1099511627776
expect 1 "$l2" -- env -u SASSIM_MEMORY_LIMIT_GB "$sassim" run -q -c gtx1080 --set l2.size_bytes=1099511627776 "$trace"
expect 1 "most of it: sm.frontend.l1i_size_bytes = 16777216 / sm.frontend.l1i_line_bytes = 16 x num_sms = 1024: 24.0 GiB" -- \
  env -u SASSIM_MEMORY_LIMIT_GB "$sassim" config show a100 --set num_sms=1024 --set sm.frontend.l1i_size_bytes=16777216 --set sm.frontend.l1i_line_bytes=16
expect 0 "size_bytes: 1099511627776" -- env SASSIM_MEMORY_LIMIT_GB=769 "$sassim" config show gtx1080 --set l2.size_bytes=1099511627776
expect 1 "SASSIM_MEMORY_LIMIT_GB = 'big': expected a memory limit in GiB above 0" -- env SASSIM_MEMORY_LIMIT_GB=big "$sassim" config show a100
for preset in $("$sassim" config list | awk '{print $1}'); do
  expect 0 "name" -- env -u SASSIM_MEMORY_LIMIT_GB "$sassim" config show "$preset"
done
finish
