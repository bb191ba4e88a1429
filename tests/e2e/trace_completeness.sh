#!/usr/bin/env bash
# A trace that lacks CTAs of its grid or warps of a CTA's block, or holds a CTA twice, is
# an error naming the file (and the line) for `trace info` and `run` alike; every
# bundled trace that is meant to load still does.
# Usage: trace_completeness.sh SASSIM_BINARY REPO_ROOT
set -uo pipefail
sassim="$1"
root="$2"
data="$root/tests/data/traces"

# shellcheck source=SCRIPTDIR/../expect.sh
source "$(dirname "${BASH_SOURCE[0]}")/../expect.sh"
make_work_dir

no_ctas="no_ctas.traceg: the grid \(2,1,1\) has 2 CTAs, the trace 0: CTAs \(0,0,0\) and \(1,0,0\) are missing"
missing="missing_ctas.traceg: the grid \(4,1,1\) has 4 CTAs, the trace 2: CTAs \(2,0,0\) and \(3,0,0\) are missing"
twice="duplicate_cta.traceg:30: thread block = 0,0,0: CTA \(0,0,0\) appears twice in the trace"
huge="huge_grid.traceg:3: -grid dim = \(2147483647,65535,65535\) is 9223090559730712575 CTAs: expected at most 134217728"
warp="missing_warp.traceg:26: CTA \(0,0,0\) that begins at line 17 has 1 of the 2 warps of its block \(33,1,1\): warp 1 is missing"
outside="cta_outside_grid.traceg:19: thread block = 2,0,0: expected a CTA inside the grid \(2,1,1\)"
for command in "trace info" "run -q"; do
  # shellcheck disable=SC2086  # the command is two words
  {
    expect 1 "$no_ctas" -- "$sassim" $command "$data/no_ctas.traceg"
    expect 1 "$missing" -- "$sassim" $command "$data/missing_ctas.traceg"
    expect 1 "$twice" -- "$sassim" $command "$data/duplicate_cta.traceg"
    expect 1 "$huge" -- "$sassim" $command "$data/huge_grid.traceg"
    expect 1 "$warp" -- "$sassim" $command "$data/missing_warp.traceg"
    expect 1 "$outside" -- "$sassim" $command "$data/cta_outside_grid.traceg"
  }
done
# The error comes before any result: no kernel table on stdout.
out="$("$sassim" run -q "$data/missing_ctas.traceg" 2>/dev/null)"
! grep -q "cycles" <<<"$out" || fail "run of an incomplete trace printed results: $out"

# A kernel of a list that misses CTAs stops the run too (the list names the file).
cp "$data/missing_ctas.traceg" "$work/kernel-1.traceg"
printf 'kernel-1.traceg\n' >"$work/kernelslist.g"
expect 1 "$work/kernel-1.traceg: the grid \(4,1,1\) has 4 CTAs, the trace 2" -- "$sassim" run -q "$work"

# Every bundled trace meant to load reads to its end.
while IFS= read -r list; do
  case "$list" in
  */bad_*/* | */missing_kernel/* | */truncated/*) continue ;;
  esac
  expect 0 "kernel" -- "$sassim" trace info "$list"
done < <(find "$root/traces/reference" "$root/tests/data" -name kernelslist.g | sort)
finish
