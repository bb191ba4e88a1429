#!/usr/bin/env bash
# The silicon regression (docs/SILICON.md): captures the microbenchmark runs of
# kernels/ubench/suite.txt, simulates them on the qv100, a100, h100 and h200 presets and
# correlates the cycles with the measured ones. Options: scripts/regress_silicon.py --help.
set -euo pipefail
exec python3 "$(dirname "$0")/regress_silicon.py" "$@"
