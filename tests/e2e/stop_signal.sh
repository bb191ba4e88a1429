#!/usr/bin/env bash
# A run asked to stop (SIGINT, SIGTERM) writes the kernels it finished, marked partial,
# and exits 128 + the signal; a log (stderr not a terminal) gets plain progress lines.
# Usage: stop_signal.sh SASSIM_BINARY REPO_ROOT
set -uo pipefail
sassim="$1"
root="$2"
# shellcheck source=SCRIPTDIR/../expect.sh
source "$(dirname "${BASH_SOURCE[0]}")/../expect.sh"
make_work_dir

# 100,000 launches of a one-warp kernel: about half a minute if nothing stops it.
kernel="$root/tests/data/cli/vectoradd_sm80/kernel-1.traceg"
mkdir "$work/trace"
for ((i = 0; i < 100000; i++)); do echo "$kernel"; done >"$work/trace/kernelslist.g"

# Runs sassim in the background, sends SIGNAL after SECONDS, waits; sets rc.
run_and_signal() {
  local signal="$1" seconds="$2" out="$3"
  shift 3
  "$sassim" run --config a100 --threads 1 --out "$out" "$@" "$work/trace" \
    >"$work/stdout" 2>"$work/stderr" &
  local pid=$!
  sleep "$seconds"
  kill "-$signal" "$pid"
  wait "$pid"
  rc=$?
}

# kernels ATTRIBUTE: the results file's kernel count and its `partial` attribute.
read_results() {
  /usr/bin/python3 -c '
import sys, h5py
with h5py.File(sys.argv[1]) as f:
    print(len(f["kernels"]), int(f.attrs["partial"]))' "$1"
}

check_stopped() {
  local name="$1" wanted_rc="$2" out="$3"
  if [[ "$rc" != "$wanted_rc" ]]; then fail "$name: exit $rc, wanted $wanted_rc"; fi
  local message
  message="$(grep -E "^sassim: stopped by $name after [0-9]+ of 100000 kernels; writing them to $out, marked partial$" "$work/stderr")"
  if [[ -z "$message" ]]; then
    fail "$name: no stop message in stderr:"
    head -5 "$work/stderr"
  fi
  grep -q "results written to $out (partial)" "$work/stdout" || fail "$name: stdout lacks '(partial)'"
  local said count partial before=$failures
  said="$(sed -E 's/.* after ([0-9]+) of .*/\1/' <<<"$message")"
  read -r count partial < <(read_results "$out") || fail "$name: cannot read $out"
  if [[ "${partial:-}" != 1 ]]; then fail "$name: partial = ${partial:-none}, wanted 1"; fi
  if [[ -z "$said" || "${count:-}" != "$said" ]]; then
    fail "$name: $out holds ${count:-none} kernels, the message said ${said:-none}"
  fi
  if ((${count:-0} < 1 || ${count:-100000} >= 100000)); then
    fail "$name: $out holds ${count:-none} kernels, wanted some but not all"
  fi
  if ((failures == before)); then echo "ok: $name after $said kernels, exit $rc"; fi
}

run_and_signal INT 2 "$work/int.h5" -q
check_stopped SIGINT 130 "$work/int.h5"
if [[ -s "$work/stderr" ]] && grep -q "^progress:" "$work/stderr"; then
  fail "-q printed progress lines"
fi

run_and_signal TERM 3.5 "$work/term.h5" --progress-every 1
check_stopped SIGTERM 143 "$work/term.h5"
# Progress lines once a second in a log: the share done and the time left.
lines="$(grep -cE '^progress: [0-9]+/100000 kernels \([0-9.]+%\) .*warp insts/s \| ETA ' "$work/stderr")"
if ((lines < 2)); then
  fail "wanted at least 2 progress lines in a log over 3.5 s at one a second, got $lines:"
  head -5 "$work/stderr"
else
  echo "ok: $lines progress lines"
fi
if grep -q $'\r' "$work/stderr"; then fail "a log got terminal redraws (carriage returns)"; fi

# A finished run is not partial.
"$sassim" run -q --config a100 --out "$work/full.h5" "$root/tests/data/cli/vectoradd_sm80" \
  >/dev/null 2>&1 || fail "a whole run failed"
read -r count partial < <(read_results "$work/full.h5")
if [[ "${count:-}" != 1 || "${partial:-}" != 0 ]]; then
  fail "whole run: $count kernels, partial ${partial:-none}; wanted 1 and 0"
else
  echo "ok: a whole run is not partial"
fi

finish
