#!/usr/bin/env bash
# Bad input gives a clear message and a non-zero exit; good input exits 0.
# Usage: cli_errors.sh SASSIM_BINARY REPO_ROOT
set -uo pipefail
sassim="$1"
root="$2"
data="$root/tests/data/cli"

# shellcheck source=SCRIPTDIR/../expect.sh
source "$(dirname "${BASH_SOURCE[0]}")/../expect.sh"

expect 1 "no/such/trace" -- "$sassim" run "$root/no/such/trace"
expect 1 "kernel-1.traceg:[0-9]+.*21955" -- "$sassim" run -q "$data/bad_nregs"
expect 1 "FROBNICATE.*sm_61|sm_61.*FROBNICATE" -- "$sassim" run -q "$data/bad_opcode"
expect 1 "kernel-1.traceg" -- "$sassim" run -q "$data/truncated"
expect 1 "typo.txtpb:2:[0-9]+" -- "$sassim" config show "$data/typo.txtpb"
expect 1 "nosuchpreset" -- "$sassim" config show nosuchpreset
expect 1 "unitz" -- "$sassim" config show v100 --set sm.unitz.fp32.latency_cycles=3
expect 1 "latency_cycles" -- "$sassim" config show v100 --set sm.units.fp32.latency_cycles=0
expect 0 "latency_cycles: 9" -- "$sassim" config show v100 --set sm.units.fp32.latency_cycles=9
# One value per -s: what follows stays positional.
expect 0 "latency_cycles: 9" -- "$sassim" config show --set sm.units.fp32.latency_cycles=9 v100
expect 0 "vectoradd_sm80: binary version 80" -- "$sassim" run -q -s sm.units.fp32.latency_cycles=9 "$data/vectoradd_sm80"
# One kernel file as the trace; a trace of one architecture on another's config warns.
expect 0 "kernel-1.traceg: binary version 80, using preset 'a100'" -- "$sassim" run -q "$data/vectoradd_sm80/kernel-1.traceg"
expect 0 "warning: .*vectoradd_sm80 was compiled for sm_80 \\(binary version 80\\); config 'v100' is sm_70" -- "$sassim" run -q -c v100 "$data/vectoradd_sm80"
expect 1 "no presets in /nonexistent/configs/presets" -- env SASSIM_HOME=/nonexistent "$sassim" config list
# Output errors are errors: stdout on a full device, for a short output (found when it
# is flushed at the end), a long one (found while writing) and a run's: the table's first
# line fails it before it simulates (no results file); a json document fails at the end,
# after the results file is written.
full="sassim: error: cannot write the standard output: No space left on device"
expect 1 "$full" -- bash -c "'$sassim' config list >/dev/full"
expect 1 "$full" -- bash -c "'$sassim' config show h100 >/dev/full"
expect 1 "$full" -- bash -c "'$sassim' config show h100 --format json >/dev/full"
expect 1 "$full" -- bash -c "'$sassim' trace info '$data/vectoradd_sm80' >/dev/full"
expect 1 "$full" -- bash -c "'$sassim' trace info --format csv '$data/vectoradd_sm80' >/dev/full"
full_out="$(mktemp -d)"
expect 1 "$full" -- bash -c "'$sassim' run -q --out '$full_out/t.h5' '$data/vectoradd_sm80' >/dev/full"
[[ ! -e "$full_out/t.h5" ]] || fail "run >/dev/full simulated and wrote t.h5"
expect 1 "$full" -- bash -c "'$sassim' run -q --format json --out '$full_out/r.h5' '$data/vectoradd_sm80' >/dev/full"
[[ -s "$full_out/r.h5" ]] || fail "run --out r.h5 >/dev/full wrote no results file"
rm -rf "$full_out"
# The results path is checked before simulating: an HDF5 name in a folder that exists.
expect 1 "--out /nonexistent/dir/r.h5: the folder /nonexistent/dir does not exist" -- "$sassim" run -q --out /nonexistent/dir/r.h5 "$data/vectoradd_sm80"
expect 1 "--out r.csv: expected a file name ending in .h5 or .hdf5" -- "$sassim" run -q --out r.csv "$data/vectoradd_sm80"
# Host threads: a count from 1 to 1024, from --threads or SASSIM_THREADS.
expect 0 "vectoradd_sm80: binary version 80" -- "$sassim" run -q --threads 3 "$data/vectoradd_sm80"
expect 2 "--threads: Value 0 not in range 1 to 1024" -- "$sassim" run -q --threads 0 "$data/vectoradd_sm80"
expect 1 "SASSIM_THREADS = 'two': expected a thread count from 1 to 1024" -- env SASSIM_THREADS=two "$sassim" run -q "$data/vectoradd_sm80"
expect 0 "vectoradd_sm80: binary version 80" -- env SASSIM_THREADS=2 "$sassim" run -q "$data/vectoradd_sm80"
# --sass: control bits from a SASS listing (a one-warp vectoradd trace of sm_80).
sass="$root/kernels/sass"
expect 1 "no/such.sass: cannot read the SASS listing" -- "$sassim" run -q --sass "$root/no/such.sass" "$data/vectoradd_sm80"
expect 1 "bad_label.sass:3: label '.L_x_9' is not defined" -- "$sassim" run -q --sass "$data/bad_label.sass" "$data/vectoradd_sm80"
expect 1 "kernel-1.traceg:21: MOV at PC 0x0000 .*sm_90/vectoradd.sass:13 has LDC" -- "$sassim" run -q --sass "$sass/sm_90/vectoradd.sass" "$data/vectoradd_sm80"
expect 0 "control bits for 1 function" -- "$sassim" run -q --sass "$sass/sm_80/vectoradd.sass" "$data/vectoradd_sm80"
# Captured traces replay by their listing's control bits (LDGSTS, LDGDEPBAR, DEPBAR.LE in hgemm_mma).
cap="$(mktemp -d)"
for k in "vectoradd 4096" "hgemm_mma 128 128 64"; do
  name="${k%% *}"
  # shellcheck disable=SC2086
  expect 0 "captured $name" -- "$sassim" capture $k -o "$cap/$name"
  expect 0 "total \(1 kernels\)" -- "$sassim" run -q --config a100 --sass "$sass/sm_80/$name.sass" "$cap/$name"
done
rm -rf "$cap"
expect 0 "Usage" -- "$sassim" --help
expect 0 "Usage" -- "$sassim" run --help
expect 0 "Usage" -- "$sassim" config show --help
expect 0 "Usage" -- "$sassim" trace info --help
# Conventions: the version and commit, exit 2 for usage errors, help per command,
# preset names in any case (with a suggestion when one is close).
expect 0 "^sassim [0-9]+\.[0-9]+\.[0-9]+ \(commit ([0-9a-f]{12}(-modified)?|unknown)\)$" -- "$sassim" --version
expect 2 "--bogus" -- "$sassim" --bogus
expect 2 "The following arguments were not expected: extra b" -- "$sassim" trace info a b extra
expect 0 "Usage: run \[OPTIONS\]" -- "$sassim" help run
expect 0 "Subcommands:" -- "$sassim" help
expect 2 "help: no command 'nosuch' \(commands: run, config, trace, sweep, correlate, capture, workload, collective\)" -- "$sassim" help nosuch
expect 0 "name: \"NVIDIA A100-SXM4-40GB\"" -- "$sassim" config show A100
expect 1 "unknown preset 'a10', did you mean 'a100'\?" -- "$sassim" config show a10
expect 0 "154839 warp instructions" -- "$sassim" trace info "$root/traces/reference/v100-rodinia-bfs/util/tracer_nvbit/traces/bfs-rodinia-3.1"
# With no arguments, from another directory, it replays the bundled V100 trace.
expect 0 "using preset 'v100'.*|total \(16 kernels\)" -- bash -c "cd / && '$sassim'"

finish
