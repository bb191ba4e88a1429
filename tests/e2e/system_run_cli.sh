#!/usr/bin/env bash
# `sassim run DIR --system PRESET`: a three-rank trace of the small_workload kernels (ranks
# 1 and 2 replay one folder) with two collectives prints its rank and collective tables,
# the same for any thread count, and writes one results file a distinct trace; the ways
# to get a multi-GPU trace wrong are errors with exit 1 that say what to do.
# Usage: system_run_cli.sh SASSIM_BINARY REPO_ROOT
set -uo pipefail
sassim="$1"
root="$2"
small="$root/tests/data/traces/small_workload"

# shellcheck source=SCRIPTDIR/../expect.sh
source "$(dirname "${BASH_SOURCE[0]}")/../expect.sh"
make_work_dir

# rank_folder DIR LINE...: DIR with the small_workload kernels and a kernelslist.g of LINEs.
rank_folder() {
  local dir="$1"
  shift
  mkdir -p "$dir"
  cp "$small/kernel-1.traceg" "$small/kernel-2.traceg.xz" "$dir/"
  printf '%s\n' "$@" >"$dir/kernelslist.g"
}
reduce="Collective,all_reduce,bytes=16384,type=bf16,ranks=all"
gather="Collective,all_gather,bytes=65536,type=bf16,ranks=all"
sys="$work/sys"
rank_folder "$sys/rank-0" kernel-1.traceg "$reduce" kernel-2.traceg "$gather"
rank_folder "$sys/rank-1" kernel-1.traceg kernel-2.traceg "$reduce" "$gather"
printf '# three ranks\nrank-0\nrank-1\nrank-1\n' >"$sys/ranks.g"

# The tables: each player's ranks, each collective on ranks 0-2, and the step.
"$sassim" run "$sys" --system h200x8 --threads 1 >"$work/one.txt" 2>&1
rc=$?
[[ $rc == 0 ]] || fail "run --system h200x8 exited $rc: $(head -5 "$work/one.txt")"
number=" +[0-9]+\.[0-9]{2}"
check_line() {
  grep -Eq -- "$1" "$work/one.txt" || fail "no line /$1/ in: $(cat "$work/one.txt")"
}
check_line "^system NVIDIA HGX H200: 3 ranks, 2 distinct trace\(s\), 2 collectives; GPUs: "
check_line "^system NVIDIA HGX H200: 3 ranks on 8 GPUs \(h200\), 2 distinct trace\(s\)$"
check_line "^ranks +trace +kernels +kernels us +collect\. us +waiting us +end us +coll\. rd KiB +coll\. wr KiB$"
# The bytes the rank's collectives read and wrote in its memory (KiB, one decimal).
kib=" +[0-9]+\.[0-9]"
check_line "^0 +rank-0 +2($number){4}($kib){2}$"
check_line "^1-2 +rank-1 +2($number){4}($kib){2}$"
check_line "^collective +ranks +algo +proto +chan +start us +time us +busbw GB/s +max link$"
collective="+0-2 +(ring|tree|nvls|p2p) +(ll|ll128|simple) +[0-9]+$number$number +[0-9]+\.[0-9] +[0-9]+%$"
check_line "^all_reduce bf16 16384 B $collective"
check_line "^all_gather bf16 65536 B $collective"
check_line "^step [0-9]+\.[0-9]{2} us: collectives [0-9]+\.[0-9]% of the slowest rank's step; bound by "
# The all_gather starts after the all_reduce ends (start + time); the step ends after both.
awk '/^all_reduce bf16/ {re = $(NF - 3) + $(NF - 2)} /^all_gather bf16/ {gs = $(NF - 3)}
     /^step / {step = $2}
     END {exit !(re > 0 && gs >= re - 0.01 && step >= gs)}' "$work/one.txt" ||
  fail "collective starts out of order: $(grep -E '^(all_|step)' "$work/one.txt")"
# Rank 0 waits at the all_reduce for ranks 1 and 2's second kernel; they wait at the
# all_gather for rank 0's.
awk '/^0 +rank-0/ {w0 = $6} /^1-2 +rank-1/ {w1 = $6} END {exit !(w0 > 0 && w1 > 0)}' \
  "$work/one.txt" || fail "waiting times: $(grep -E 'rank-' "$work/one.txt")"

# Any thread count prints the same (but for the host-time free lines).
"$sassim" run "$sys" --system h200x8 --threads 3 -o "$work/r.h5" >"$work/three.txt" 2>&1 ||
  fail "run --threads 3 failed: $(head -5 "$work/three.txt")"
# The host's peak memory is no simulated figure; every other line must match.
same() { grep -v -e '^results of' -e '^peak memory' "$1"; }
diff <(same "$work/three.txt") <(same "$work/one.txt") >/dev/null ||
  fail "--threads 3 differs from --threads 1: $(diff <(same "$work/three.txt") <(same "$work/one.txt"))"
grep -q "^results of ranks 1-2 written to $work/r.rank1.h5$" "$work/three.txt" ||
  fail "no results line for ranks 1-2: $(cat "$work/three.txt")"
[[ -s "$work/r.rank0.h5" && -s "$work/r.rank1.h5" ]] || fail "r.rank0.h5 and r.rank1.h5 not written"
[[ ! -e "$work/r.rank2.h5" ]] || fail "rank 2 replays rank-1's trace: no file of its own"

# JSON: the same step and both collectives, with their links.
"$sassim" run "$sys" --system h200x8 --format json 2>/dev/null >"$work/run.json" ||
  fail "run --format json failed"
python3 - "$work/run.json" "$work/one.txt" <<'PY' || fail "the JSON report differs from the table"
import json, re, sys
d = json.load(open(sys.argv[1]))
step = float(re.search(r"^step ([0-9.]+) us", open(sys.argv[2]).read(), re.M).group(1))
assert abs(d["step_us"] - step) < 0.01, (d["step_us"], step)
assert [c["op"] for c in d["collectives"]] == ["all_reduce", "all_gather"]
assert all(c["links"] and c["gpus"] and c["ranks"] == "0-2" for c in d["collectives"])
assert [p["ranks"] for p in d["players"]] == ["0", "1-2"]
# Each player's collective bytes: what each collective takes of its first rank's GPU, in
# whole 32-byte sectors, every byte through its memory; the table shows them in KiB.
table = {m.group(1): (float(m.group(2)), float(m.group(3))) for m in re.finditer(
    r"^(\S+) +rank-\d.* ([0-9.]+) +([0-9.]+)$", open(sys.argv[2]).read(), re.M)}
for p, first in zip(d["players"], [0, 1]):
    sides = [g for c in d["collectives"] for g in c["gpus"] if g["rank"] == first]
    assert len(sides) == 2, sides
    rd = sum((g["memory_read_bytes"] + 31) // 32 * 32 for g in sides)
    wr = sum((g["memory_write_bytes"] + 31) // 32 * 32 for g in sides)
    assert rd > 0 and wr > 0
    assert (p["collective_read_bytes"], p["collective_write_bytes"]) == (rd, wr), (p, rd, wr)
    assert table[p["ranks"]] == (round(rd / 1024, 1), round(wr / 1024, 1)), (table, rd, wr)
PY
# trace info: each distinct rank folder with its ranks and collectives.
"$sassim" trace info "$sys" >"$work/info.txt" 2>&1 || fail "trace info on the system failed"
for line in "== ranks 0: .*/rank-0" "== ranks 1-2: .*/rank-1" \
  "total: 2 kernels and 2 collectives, " "3 ranks, 2 distinct trace\(s\)"; do
  grep -Eq "^$line" "$work/info.txt" || fail "no line /$line/ in trace info: $(cat "$work/info.txt")"
done

# Errors: exit 1 and what to do.
presets="presets: a100x8, h100x8, h200x16-2node, h200x8"
expect 1 "sassim: error: $sys: a multi-GPU trace \(it holds a ranks\.g\): give --system PRESET or FILE \($presets\)" -- \
  "$sassim" run "$sys"
expect 1 "sassim: error: $sys/rank-0: --system replays a multi-GPU trace folder, one holding a ranks\.g \(docs/MULTIGPU\.md\); this holds none" -- \
  "$sassim" run "$sys/rank-0" --system h200x8
expect 1 "sassim: error: $sys/rank-0: 2 collective\(s\): the trace is one rank of a multi-GPU trace; replay the folder holding its ranks\.g with --system PRESET" -- \
  "$sassim" run "$sys/rank-0" -c h200
expect 1 "sassim: error: --config with --system: the system names its GPUs' preset \(gpu_preset\); change them with --set" -- \
  "$sassim" run "$sys" --system h200x8 -c h100
expect 1 "sassim: error: --sample with --system: sampling cannot run with collectives" -- \
  "$sassim" run "$sys" --system h200x8 --sample kernels
expect 1 "sassim: error: energy.power_cap with --system: the GPUs of a system run at their configured clock" -- \
  "$sassim" run "$sys" --system h200x8 --set energy.power_cap=true
expect 1 "unknown system preset 'h300x8'" -- "$sassim" run "$sys" --system h300x8
# A plan error names the rank's list file and line.
bad="$work/bad"
rank_folder "$bad/rank-0" kernel-1.traceg "$reduce"
rank_folder "$bad/rank-1" kernel-1.traceg "${reduce/16384/8192}"
printf 'rank-0\nrank-1\n' >"$bad/ranks.g"
expect 1 "rank-1/kernelslist\.g:2: all_reduce bf16 8192 B is call 1 on the communicator of ranks 0-1, where .*rank-0/kernelslist\.g:2 calls all_reduce bf16 16384 B" -- \
  "$sassim" run "$bad" --system h200x8
finish
