#!/usr/bin/env bash
# The same sweep through a real single-node Slurm cluster (scripts/slurm-local.sh) and
# through the local backend gives the same merged table, host-time columns aside; a
# rerun submits only the runs without a marker. The cluster lives in a temp folder and
# is stopped however the test ends.
# Usage: slurm_sweep.sh SASSIM_BINARY REPO_ROOT
set -euo pipefail
sassim="$1"
root="$2"
spec="$root/tests/data/sweeps/small.txtpb"

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

for tool in sbatch squeue slurmctld slurmd munged; do
  command -v "$tool" >/dev/null ||
    fail "'$tool' is not installed: this test needs Slurm and munge (scripts/setup.sh installs slurm-wlm and munge)"
done

work="$(mktemp -d "${TMPDIR:-/tmp}/sassim-slurm-test.XXXXXX")"
chmod 0755 "$work" # munged wants the folders above its socket searchable by all
cleanup() {
  "$root/scripts/slurm-local.sh" stop "$work/cluster" || true
  rm -rf "$work"
}
trap cleanup EXIT

conf="$("$root/scripts/slurm-local.sh" start "$work/cluster")" || fail "the local Slurm cluster did not start"
export "${conf?}"
[[ -f "$SLURM_CONF" ]] || fail "slurm-local.sh printed no SLURM_CONF"

start=$SECONDS
"$sassim" sweep "$spec" --backend slurm --out "$work/slurm" || fail "the slurm sweep failed"
echo "slurm sweep: $((SECONDS - start)) s"
"$sassim" sweep "$spec" --backend local --jobs 2 --out "$work/local" || fail "the local sweep failed"

runs=$(find "$work/slurm/runs" -mindepth 1 -maxdepth 1 -type d | wc -l)
markers=$(find "$work/slurm/runs" -mindepth 2 -maxdepth 2 -name COMPLETE | wc -l)
((runs == 10 && markers == 10)) || fail "expected 10 finished runs, found $runs folders and $markers markers"
[[ -s "$work/slurm/slurm/submit-001/job_id" ]] || fail "no job id recorded"
(($(wc -l <"$work/slurm/slurm/submit-001/manifest.tsv") == 10)) || fail "manifest does not hold 10 tasks"
grep -q -- '--array=0-9%2' "$work/slurm/slurm/submit-001/sbatch.txt" || fail "no %2 throttle"
grep -q -- '--partition=debug --time=00:10:00 --mem=200M' "$work/slurm/slurm/submit-001/sbatch.txt" ||
  fail "slurm options of the spec not passed to sbatch"

# Compares the two CSV tables without the columns that hold host time.
without_host_time() {
  local csv="$1" drop
  drop="$(head -1 "$csv" | tr ',' '\n' | grep -n -E '^host_seconds$' | cut -d: -f1 | paste -sd,)"
  [[ -n "$drop" ]] || fail "no host_seconds column in $csv"
  cut -d, --complement -f"$drop" "$csv"
}
diff <(without_host_time "$work/slurm/sweep.csv") <(without_host_time "$work/local/sweep.csv") >"$work/diff.txt" ||
  fail "merged tables differ between the slurm and the local backend: $(head -c 2000 "$work/diff.txt")"
(($(wc -l <"$work/slurm/sweep.csv") == 11)) || fail "the merged table does not have 10 rows"

# Resume: only the run without a marker is submitted again.
victim="$(find "$work/slurm/runs" -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | sort | head -1)"
rm -rf "${work:?}/slurm/runs/$victim"
# Inode and mtime of every marker but the victim's.
marker_stamps() {
  find "$work/slurm/runs" -mindepth 2 -maxdepth 2 -name COMPLETE -not -path "*/$victim/*" \
    -printf '%p %i %T@\n' | sort
}
stamp_before="$(marker_stamps)"
"$sassim" sweep "$spec" --backend slurm --out "$work/slurm" >"$work/rerun.log" || fail "the slurm rerun failed"
grep -q '9 finished earlier, 1 to run' "$work/rerun.log" || fail "rerun did not skip the finished runs: $(cat "$work/rerun.log")"
(($(wc -l <"$work/slurm/slurm/submit-002/manifest.tsv") == 1)) || fail "rerun submitted more than the missing run"
grep -q "$victim" "$work/slurm/slurm/submit-002/manifest.tsv" || fail "rerun did not submit run $victim"
[[ -f "$work/slurm/runs/$victim/COMPLETE" ]] || fail "run $victim was not redone"
stamp_after="$(marker_stamps)"
[[ "$stamp_before" == "$stamp_after" ]] || fail "finished runs were rewritten by the rerun"
diff <(without_host_time "$work/slurm/sweep.csv") <(without_host_time "$work/local/sweep.csv") >/dev/null ||
  fail "merged table changed after the rerun"

echo "ok: slurm and local sweeps agree ($((SECONDS - start)) s)"
