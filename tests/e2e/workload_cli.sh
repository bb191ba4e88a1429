#!/usr/bin/env bash
# `sassim workload`: option errors naming the option; a small dense layer captured with
# --check, listed by `trace info` and replayed as its 18 launches by the listings the folder
# keeps (a --sass listing taking precedence); a small prefill (16 launches) and a small MoE
# layer (22 launches) likewise, and the MoE layer over 2 expert-parallel GPUs (--ep 2),
# replayed on a system; a speculative decoding verification step (--draft) planned and
# checked, for the dense and the MoE layer; a wrong listing caught by --check at the
# launch that runs it.
# Usage: workload_cli.sh SASSIM_BINARY REPO_ROOT
set -uo pipefail
sassim="$1"
root="$2"

# shellcheck source=SCRIPTDIR/../expect.sh
source "$(dirname "${BASH_SOURCE[0]}")/../expect.sh"
make_work_dir

# A decode step of 2 tokens: skinny_gemm_m2 for the projections.
small=(--batch 2 --context 600 --hidden 256 --heads 4 --kv-heads 1 --ffn 256 -q)

expect 1 "workload gpt: unknown workload: expected dense-layer or moe-layer" -- "$sassim" workload gpt
expect 1 "--top-k 3 with --experts 2: expected 1 to 2 experts per token" -- \
  "$sassim" workload moe-layer --experts 2 --top-k 3 -o "$work/x"
expect 1 "--experts 0: expected 1 to 64 experts" -- "$sassim" workload moe-layer --experts 0 -o "$work/x"
expect 1 "--experts: only moe-layer has experts" -- "$sassim" workload dense-layer --experts 4 -o "$work/x"
expect 1 "--context 100 with --phase prefill: expected a multiple of 64" -- \
  "$sassim" workload dense-layer --phase prefill --context 100
expect 1 "--batch 64 x --context 2048 = 131072 prompt tokens with --phase prefill: expected at most 65536" -- \
  "$sassim" workload dense-layer --phase prefill --batch 64 --context 2048
expect 1 "--phase fast: expected decode or prefill" -- "$sassim" workload dense-layer --phase fast
expect 1 "--heads 30 is not a multiple of --kv-heads 8" -- "$sassim" workload dense-layer --heads 30
expect 1 "--arch sm_75: expected sm_80" -- "$sassim" workload dense-layer --arch sm_75
expect 1 "--listings $work/none: not a folder" -- \
  "$sassim" workload dense-layer "${small[@]}" --listings "$work/none"
[[ -e "$work/x" ]] && fail "a refused workload wrote $work/x"

# The plan of the default layer: the padding stated, Q/K/V slices of the QKV output.
expect 0 "GEMMs \(skinny_gemm_m1\): M = 1 token, no padding rows" -- \
  "$sassim" workload dense-layer --plan
expect 0 "GEMMs \(skinny_gemm_m4\): M = 3 tokens padded to 4 rows" -- \
  "$sassim" workload dense-layer --batch 3 --plan
expect 0 "GEMMs \(bf16_gemm_wgmma\): M = 1 token padded to 128 rows" -- \
  "$sassim" workload dense-layer --gemm tiled --plan
expect 1 "--gemm skinny: 9 token rows, more than skinny_gemm's 8" -- \
  "$sassim" workload dense-layer --gemm skinny --batch 9 --plan
expect 1 "--gemm wide: expected auto, tiled, skinny or ws" -- \
  "$sassim" workload dense-layer --gemm wide --plan
expect 0 " +8 attention +decode_attention_tc +q=q" -- \
  "$sassim" workload dense-layer --attention tc --plan
expect 1 "--attention fast: expected cuda or tc" -- \
  "$sassim" workload dense-layer --attention fast --plan
expect 0 "M = 4096 tokens, a multiple of the 128-row tile" -- \
  "$sassim" workload dense-layer --phase prefill --plan
expect 0 "GEMMs \(bf16_gemm_ws\): M = 320 tokens padded to 512 rows \(its 256-row tile" -- \
  "$sassim" workload dense-layer --phase prefill --context 320 --gemm ws --plan
expect 1 "--gemm ws: bf16_gemm_ws needs sm_90 \(wgmma and clusters\), not sm_80" -- \
  "$sassim" workload dense-layer --gemm ws --arch sm_80 --plan
expect 0 "attention +prefill_attention +q=q k=k v=v o=o_proj.in" -- \
  "$sassim" workload dense-layer --phase prefill --plan
expect 0 "k_cast +cast_bf16 +c=qkv_proj.out\+16384 out=k" -- "$sassim" workload dense-layer --plan

layer="$work/layer"
out="$("$sassim" workload dense-layer "${small[@]}" --check -o "$layer" 2>&1)"
rc=$?
[[ $rc == 0 ]] || fail "workload --check exited $rc: $out"
checks="$(grep -c "values match the CPU reference\|within the FP32 summation bound" <<<"$out")"
[[ "$checks" == 18 ]] || fail "expected 18 checked launches, found $checks: $out"
grep -q "captured 18 launches" <<<"$out" || fail "no capture summary: $out"
[[ "$(wc -l <"$layer/kernelslist.g")" == 18 ]] || fail "kernelslist.g: $(cat "$layer/kernelslist.g")"

info="$("$sassim" trace info "$layer" 2>&1)"
for kernel in rmsnorm skinny_gemm_m2 cast_bf16 rope kv_append decode_attention \
  decode_attention_combine residual_add swiglu; do
  grep -q "$kernel" <<<"$info" || fail "trace info does not list $kernel: $info"
done

# The folder keeps the listings its launches ran: the replay the capture printed needs no
# --sass, and issues every launch by its listing's control bits.
for kernel in rmsnorm skinny_gemm_m2 cast_bf16 rope kv_append decode_attention residual_add \
  swiglu; do
  [[ -f "$layer/sass/$kernel.sass" ]] || fail "the folder does not keep $kernel.sass: $(ls "$layer")"
done
grep -q "^replay: sassim run $layer -c h200$" <<<"$out" || fail "no plain replay line: $out"
replay="$(sed -n 's/^replay: sassim run //p' <<<"$out")"
read -ra replay_args <<<"$replay"
run_out="$("$sassim" run "${replay_args[@]}" 2>&1)"
rc=$?
[[ $rc == 0 ]] || fail "run exited $rc: $run_out"
grep -q "warning" <<<"$run_out" && fail "run warned: $run_out"
grep -q "listing $layer/sass/skinny_gemm_m2.sass (kept in the trace folder)" <<<"$run_out" ||
  fail "run did not read the folder's listing: $run_out"
grep -Eq "control bits for 4 of 18 launches \(skinny_gemm_m2\)" <<<"$run_out" ||
  fail "run did not take the GEMM listing for 4 launches: $run_out"
table="$(sed -n '/^  id  kernel /,/^ *total /p' <<<"$run_out")"
rows="$(grep -Ec "^ *[0-9]+ +(rmsnorm|skinny_gemm_m2|cast_bf16|rope|kv_append|decode_attention|decode_attention_combine|residual_add|swiglu) " <<<"$table")"
grep -q "total (18 kernels)" <<<"$table" || fail "no total of 18 kernels: $run_out"
[[ "$rows" == 18 ]] || fail "expected 18 result rows, found $rows: $run_out"
# A --sass listing of the same function is taken before the folder's: the GEMM's stall
# counts doubled give another cycle count.
total_cycles() { sed -n 's/^ *total (18 kernels) *\([0-9]*\).*/\1/p' <<<"$1"; }
python3 - "$layer/sass/skinny_gemm_m2.sass" "$work/skinny_gemm_m2.sass" <<'PY'
import re, sys
# The second word of each instruction holds the control bits: stall cycles at bits 41-44.
text = open(sys.argv[1]).read()
slow = re.sub(r"^(\s+)/\* 0x([0-9a-f]{16}) \*/$",
              lambda m: f"{m.group(1)}/* 0x{int(m.group(2), 16) | (15 << 41):016x} */",
              text, flags=re.M)
assert slow != text
open(sys.argv[2], "w").write(slow)
PY
slow_out="$("$sassim" run "${replay_args[@]}" --sass "$work/skinny_gemm_m2.sass" 2>&1)" ||
  fail "run with --sass exited non-zero: $slow_out"
grep -Eq "control bits for 4 of 18 launches \(skinny_gemm_m2\)" <<<"$slow_out" ||
  fail "the --sass listing did not serve the GEMMs: $slow_out"
fast="$(total_cycles "$run_out")"
slow="$(total_cycles "$slow_out")"
[[ -n "$fast" && -n "$slow" ]] && ((slow > fast)) ||
  fail "stall counts of 15 in --sass did not slow the layer ($fast -> $slow cycles)"
# A prefill of 2 prompts of 128 tokens: 16 launches checked, replayed as 16 kernels.
prefill="$work/prefill"
out="$("$sassim" workload dense-layer --phase prefill --batch 2 --context 128 --hidden 256 \
  --heads 4 --kv-heads 1 --ffn 256 -q --check -o "$prefill" 2>&1)"
rc=$?
[[ $rc == 0 ]] || fail "prefill --check exited $rc: $out"
checks="$(grep -c "values match the CPU reference\|within the FP32 summation bound" <<<"$out")"
[[ "$checks" == 16 ]] || fail "expected 16 checked prefill launches, found $checks: $out"
grep -q "prefill_attention: 131072 of 131072 values match" <<<"$out" ||
  fail "no prefill_attention check: $out"
replay="$(sed -n 's/^replay: sassim run //p' <<<"$out")"
read -ra replay_args <<<"$replay"
run_out="$("$sassim" run -q "${replay_args[@]}" 2>&1)"
rc=$?
[[ $rc == 0 ]] || fail "prefill run exited $rc: $run_out"
grep -q "total (16 kernels)" <<<"$run_out" || fail "no total of 16 kernels: $run_out"
grep -Eq "^ *8 +prefill_attention " <<<"$run_out" || fail "launch 8 is not the attention: $run_out"
# The figures per token from the folder's workload.txt, in the table's notes and in JSON.
grep -Eq "^workload dense-layer prefill: batch 2, context 128: 256 tokens in [0-9.]+ us" \
  <<<"$run_out" || fail "no workload line: $run_out"
grep -Eq "^32 such layers .*: [0-9.]+ ms to the first token, [0-9]+ tokens/s" <<<"$run_out" ||
  fail "no model line: $run_out"
json="$("$sassim" run -q --format json "${replay_args[@]}" 2>/dev/null)"
grep -q '"workload": {"workload": "dense-layer", "phase": "prefill", "batch": 2, "context": 128, "tokens": 256' \
  <<<"$json" || fail "no workload object in the JSON: $json"
# A bad workload.txt is an error naming its line, before anything is simulated.
sed -i 's/^tokens 256$/tokens 0/' "$prefill/workload.txt"
expect 1 "workload.txt:6: tokens 0: expected at least 1" -- "$sassim" run -q "${replay_args[@]}"

# A small MoE layer (4 experts, top-2): 22 launches checked, replayed as 22 kernels.
moe="$work/moe"
out="$("$sassim" workload moe-layer "${small[@]}" --gemm tiled --experts 4 --top-k 2 --check \
  -o "$moe" 2>&1)"
rc=$?
[[ $rc == 0 ]] || fail "moe-layer --check exited $rc: $out"
checks="$(grep -c "values match the CPU reference\|within the FP32 summation bound" <<<"$out")"
[[ "$checks" == 22 ]] || fail "expected 22 checked MoE launches, found $checks: $out"
grep -q "experts: 2 of 4 per token" <<<"$out" || fail "no experts line: $out"
replay="$(sed -n 's/^replay: sassim run //p' <<<"$out")"
read -ra replay_args <<<"$replay"
run_out="$("$sassim" run -q "${replay_args[@]}" 2>&1)"
rc=$?
[[ $rc == 0 ]] || fail "moe run exited $rc: $run_out"
grep -q "total (22 kernels)" <<<"$run_out" || fail "no total of 22 kernels: $run_out"
grep -Eq "^workload moe-layer decode: batch 2" <<<"$run_out" || fail "no moe workload line: $run_out"
expect 0 "unpermute +moe_unpermute +c=experts.down.out pair_rows=moe.pair_rows" -- \
  "$sassim" workload moe-layer --plan
# --ep 2 (4 sequences, 4 experts): a folder per rank with its all-to-alls, every launch of
# both ranks checked, replayed on a system; bad values name the option before any work.
ep="$work/ep"
out="$("$sassim" workload moe-layer --batch 4 "${small[@]:2}" --experts 4 --top-k 2 --ep 2 \
  --check -o "$ep" 2>&1)"
rc=$?
[[ $rc == 0 ]] || fail "moe-layer --ep 2 --check exited $rc: $out"
grep -q "^expert parallel over 2 GPUs: each rank runs the attention of 2 of the 4 sequences" \
  <<<"$out" || fail "no expert-parallel line: $out"
# A launch whose check fails stops the capture; each rank's line says its were checked.
grep -Eq "^  rank 0 \(experts 0-1\): 22 launches, [0-9]+ warp insts \(checked\)" <<<"$out" ||
  fail "no checked line for rank 0: $out"
grep -Eq "^  rank 1 \(experts 2-3\): 22 launches, [0-9]+ warp insts \(checked\)" <<<"$out" ||
  fail "no checked line for rank 1: $out"
[[ "$(grep -v '^#' "$ep/ranks.g")" == $'rank-0\nrank-1' ]] || fail "ranks.g: $(cat "$ep/ranks.g")"
for r in 0 1; do
  [[ "$(grep -c '^Collective,alltoall,bytes=[0-9]*,type=\(bf16\|fp32\),ranks=0-1,stream=0$' \
    "$ep/rank-$r/kernelslist.g")" == 2 ]] || fail "rank-$r has not 2 alltoalls: $(cat "$ep/rank-$r/kernelslist.g")"
done
grep -qx "tokens 4" "$ep/rank-0/workload.txt" || fail "rank-0's workload.txt does not count 4 tokens"
run_out="$("$sassim" run -q "$ep" --system h200x8 2>&1)"
rc=$?
[[ $rc == 0 ]] || fail "the --ep 2 replay exited $rc: $run_out"
grep -Eq "^alltoall bf16 [0-9]+ B +0-1 " <<<"$run_out" || fail "no dispatch alltoall: $run_out"
grep -Eq "^alltoall fp32 [0-9]+ B +0-1 " <<<"$run_out" || fail "no combine alltoall: $run_out"
expect 1 "--ep 3 with --experts 4: each rank holds experts / ep experts, so --experts must be a multiple of --ep" -- \
  "$sassim" workload moe-layer --experts 4 --ep 3 -o "$work/e"
expect 1 "--ep 2 with --batch 3: each rank runs batch / ep sequences" -- \
  "$sassim" workload moe-layer --batch 3 --ep 2 -o "$work/e"
expect 1 "--ep: only moe-layer has experts" -- "$sassim" workload dense-layer --ep 2 -o "$work/e"
[[ -e "$work/e" ]] && fail "a refused --ep wrote $work/e"
# --draft: errors naming the option before any work; the verification step's plan (every
# step on batch x (draft + 1) token rows) and its capture, every launch checked.
expect 1 "--draft 16: expected 0 to 15 draft tokens per sequence" -- \
  "$sassim" workload dense-layer --draft 16 -o "$work/d"
expect 1 "--draft 2 with --phase prefill: draft tokens are verified in a decode step" -- \
  "$sassim" workload dense-layer --phase prefill --draft 2 -o "$work/d"
[[ -e "$work/d" ]] && fail "a refused --draft wrote $work/d"
expect 0 "batch 2, context 4096, draft 3 \(verifies 4 token rows per sequence\)" -- \
  "$sassim" workload dense-layer --batch 2 --draft 3 --plan
expect 0 "GEMMs \(skinny_gemm_m8\): M = 8 tokens, no padding rows" -- \
  "$sassim" workload dense-layer --batch 2 --draft 3 --plan
expect 0 "attention +spec_verify_attention +q=q .*row_lens=attention.row_lens" -- \
  "$sassim" workload dense-layer --batch 2 --draft 3 --plan
expect 0 "attention_combine +decode_attention_combine +o_partial=attention.o_partial lse=attention.lse context_lens=attention.row_lens" -- \
  "$sassim" workload dense-layer --batch 2 --draft 3 --plan
out="$("$sassim" workload dense-layer "${small[@]}" --draft 3 --check -o "$work/draft" 2>&1)"
rc=$?
[[ $rc == 0 ]] || fail "--draft 3 --check exited $rc: $out"
checks="$(grep -c "values match the CPU reference\|within the FP32 summation bound" <<<"$out")"
[[ "$checks" == 18 ]] || fail "expected 18 checked launches with --draft, found $checks: $out"
grep -Eq "spec_verify_attention: [0-9]+ of [0-9]+ values match" <<<"$out" ||
  fail "no spec_verify_attention check: $out"
grep -qx "tokens 8" "$work/draft/workload.txt" || fail "workload.txt does not count 8 token rows"
expect 0 "moe-layer decode: .*draft 1 \(verifies 2 token rows per sequence\)" -- \
  "$sassim" workload moe-layer --draft 1 --plan
out="$("$sassim" workload moe-layer "${small[@]}" --experts 4 --top-k 2 --draft 1 --check \
  -o "$work/moe-draft" 2>&1)"
rc=$?
[[ $rc == 0 ]] || fail "moe-layer --draft 1 --check exited $rc: $out"
grep -Eq "spec_verify_attention: [0-9]+ of [0-9]+ values match" <<<"$out" ||
  fail "no spec_verify_attention check in the MoE layer: $out"
grep -qx "tokens 4" "$work/moe-draft/workload.txt" || fail "MoE workload.txt does not count 4 rows"

# residual_add's FADD made an FMUL: the check fails at the launch that runs it.
cp -r "$root/kernels/sass" "$work/sass"
sed -i '0,/ FADD R/s/ FADD R/ FMUL R/' "$work/sass/sm_90/residual_add.sass"
expect 1 "--check failed at launch 12 attn_residual \(residual_add\): residual_add: mismatch" -- \
  "$sassim" workload dense-layer "${small[@]}" --check --listings "$work/sass"
finish
