#!/usr/bin/env bash
# `sassim run --sample kernels` on 40 launches (the a100 GEMM trace's eight PyTorch
# kernels, five times): the console's sampling lines, the /kernels columns of the
# estimated launches, the launches simulated in detail equal to a full run's, and a
# bad mode refused as a usage error.
# Usage: sample_cli.sh SASSIM_BINARY REPO_ROOT
set -uo pipefail
sassim="$1"
root="$2"

# shellcheck source=SCRIPTDIR/../expect.sh
source "$(dirname "${BASH_SOURCE[0]}")/../expect.sh"
make_work_dir

gemm="$root/traces/reference/a100-flashinfer/test-traces/flashinfer-gemm/traces"
for _ in 1 2 3 4 5; do
  for k in 1 2 3 4 5 6 7 8; do echo "$gemm/kernel-$k.traceg"; done
done >"$work/kernelslist.g"

expect 0 "sampling: 40 kernel launches in 8 classes" -- \
  "$sassim" run -q -c a100 "$work/kernelslist.g" --sample kernels --out "$work/sampled.h5"
expect 0 "sampling: 16 of 40 launches estimated, 0 sampled within; [0-9]+ of [0-9]+ warp instructions simulated" -- \
  "$sassim" run -q -c a100 "$work/kernelslist.g" --sample kernels
expect 0 "results written" -- "$sassim" run -q -c a100 "$work/kernelslist.g" --out "$work/full.h5"
expect 2 "--sample: bogus not in \{off,kernels,ctas,all\}" -- \
  "$sassim" run -q -c a100 "$work/kernelslist.g" --sample bogus

check="$(/usr/bin/python3 - "$work/full.h5" "$work/sampled.h5" <<'PY'
import sys
import h5py
import numpy as np
with h5py.File(sys.argv[1]) as f, h5py.File(sys.argv[2]) as s:
    full, samp = f["kernels"][:], s["kernels"][:]
    assert s.attrs["sampling"] == "kernels" and f.attrs["sampling"] == "off", "sampling attribute"
    est = samp["sampled"] == 1
    assert est.sum() == 16, est.sum()
    # Each class: a warm-up and two samples in detail (the first three rounds), then estimates.
    assert not est[:24].any() and est[24:].all(), est
    assert (samp["simulated_warp_instructions"][~est] == samp["warp_instructions"][~est]).all()
    assert (samp["simulated_warp_instructions"][est] == 0).all()
    assert (samp["warp_instructions"] == full["warp_instructions"]).all()
    assert (samp["cycles"][~est] == full["cycles"][~est]).all(), "detailed launches differ"
    assert (samp["cycles_ci95_pct"][~est] == 0).all()
    total = (samp["cycles"].sum() - full["cycles"].sum()) / full["cycles"].sum()
    assert abs(total) <= 0.02, total
    assert s.attrs["cycles_ci95_pct"] >= 0 and f.attrs["cycles_ci95_pct"] == 0
print("columns ok")
PY
)"
[[ "$check" == "columns ok" ]] || fail "sampled results: $check"
finish
