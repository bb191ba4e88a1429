#!/usr/bin/env bash
# `energy.power_cap` on a small BF16 wgmma GEMM on h200 (116.5 W at 1,980 MHz): with a
# 100 W limit the run lowers the SM clock to the highest 15 MHz step whose power is
# within it (the same clock set by hand gives the same power; one step up exceeds it),
# with the console's notes (those docs/ENERGY.md shows); a limit no clock holds, and
# config errors.
# Usage: power_cap.sh SASSIM_BINARY REPO_ROOT
set -uo pipefail
sassim="$1"
root="$2"

# shellcheck source=SCRIPTDIR/../expect.sh
source "$(dirname "${BASH_SOURCE[0]}")/../expect.sh"
make_work_dir
cd "$root" || fail "no repository at $root"

"$sassim" capture bf16_gemm_wgmma 512 512 256 --listing kernels/sass/sm_90a -o "$work/gemm" -q \
  >/dev/null || fail "capture failed"

power() {  # power(W) of the run with the extra arguments
  "$sassim" run -q -c h200 "$work/gemm" --format json "$@" 2>/dev/null |
    /usr/bin/python3 -c "import json,sys; print(json.load(sys.stdin)['total']['avg_power_w'])"
}
above() { /usr/bin/python3 -c "import sys; sys.exit(0 if float('$1') > float('$2') else 1)"; }

uncapped="$(power)"
above "$uncapped" 100 || fail "the GEMM draws $uncapped W at 1,980 MHz: expected above 100 W"

cap=(--set energy.power_cap=true --set energy.board_power_limit_w=100)
expect 0 "power cap: board limit 100 W over the whole run; at 1980 MHz the run drew [0-9.]+ W" -- \
  "$sassim" run -q -c h200 "$work/gemm" "${cap[@]}"
expect 0 "power cap: the SM clock lowered: ran at [0-9]+ MHz, [0-9.]+ W \([0-9]+ clocks simulated\)" -- \
  "$sassim" run -q -c h200 "$work/gemm" "${cap[@]}"
notes="$("$sassim" run -q -c h200 "$work/gemm" "${cap[@]}" | grep "^power cap:")"
line="$(grep "ran at" <<<"$notes")"
# docs/ENERGY.md shows these two lines.
while IFS= read -r l; do
  grep -qxF "    $l" "$root/docs/ENERGY.md" || fail "docs/ENERGY.md lacks the line: $l"
done <<<"$notes"
mhz="$(sed -E 's/.*ran at ([0-9]+) MHz.*/\1/' <<<"$line")"
(( mhz < 1980 && (1980 - mhz) % 15 == 0 )) || fail "capped clock $mhz MHz: expected a 15 MHz step below 1980"
capped="$(power "${cap[@]}")"
above 100 "$capped" || [[ "$capped" == 100* ]] || fail "capped run draws $capped W: expected at most 100"
by_hand="$(power --set clocks.core_mhz="$mhz")"
[[ "$by_hand" == "$capped" ]] || fail "at $mhz MHz by hand: $by_hand W, capped run: $capped W"
step_up="$(power --set clocks.core_mhz=$((mhz + 15)))"
above "$step_up" 100 || fail "one step up ($((mhz + 15)) MHz) draws $step_up W: the cap stopped short"

expect 0 "power cap: no clock down to the floor holds the limit: ran at the lowest tried, 1005 MHz" -- \
  "$sassim" run -q -c h200 "$work/gemm" --set energy.power_cap=true \
  --set energy.board_power_limit_w=20 --set energy.power_cap_min_core_mhz=1000
expect 1 "energy.power_cap_min_core_mhz = 2500 exceeds clocks.core_mhz = 1980" -- \
  "$sassim" run -q -c h200 "$work/gemm" --set energy.power_cap=true \
  --set energy.power_cap_min_core_mhz=2500
finish
