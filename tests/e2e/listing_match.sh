#!/usr/bin/env bash
# `sassim run --sass`: before simulating, each listing says how many launches run by its
# control bits, or a warning names a listing that holds none of the trace's kernels.
# Usage: listing_match.sh SASSIM_BINARY REPO_ROOT
set -uo pipefail
sassim="$1"
root="$2"

# shellcheck source=SCRIPTDIR/../expect.sh
source "$(dirname "${BASH_SOURCE[0]}")/../expect.sh"

trace="$root/tests/data/cli/vectoradd_sm80"
sass="$root/kernels/sass/sm_80"
expect 0 "listing .*vectoradd.sass: control bits for 1 of 1 launches \(vectoradd\)" -- \
  "$sassim" run -q "$trace" --sass "$sass/vectoradd.sass"
expect 0 "warning: .*saxpy.sass: none of the trace's 1 launch\(es\) is one of its 1 function\(s\)" -- \
  "$sassim" run -q "$trace" --sass "$sass/saxpy.sass"
# Both: the second says nothing of the first's kernel; the warning comes before the table.
out="$("$sassim" run -q "$trace" --sass "$sass/vectoradd.sass" --sass "$sass/saxpy.sass" 2>&1)"
warning_line="$(grep -n "warning: .*saxpy.sass" <<<"$out" | cut -d: -f1)"
table_line="$(grep -n "^ *id  kernel" <<<"$out" | cut -d: -f1)"
if [[ -z "$warning_line" || -z "$table_line" || "$warning_line" -ge "$table_line" ]]; then
  fail "the listing warning should come before the results: $out"
fi
finish
