// spec_argmax and spec_accept: the greedy acceptance of speculative decoding's draft
// tokens after the target model's verification step (kernels/spec_verify_attention.h).
//   - spec_argmax: logits [rows][vocab] FP32 -> argmax [rows] int32, the first index of
//     the largest value (NaNs never win; a row of NaN and -inf gives 0), as torch.argmax.
//     Grid rows, 256 threads: each thread scans vocab entries tid, tid + 256, ... keeping
//     the first largest, a butterfly of shuffles (value, then lower index on ties) joins a
//     warp and warp 0 joins the 8 warps through shared memory.
//   - spec_accept: per sequence the target's argmax target [batch][k + 1] (the token the
//     target model chooses after each of the k + 1 verified rows) and the draft tokens
//     draft [batch][k]; accepted [batch] = the longest prefix where draft == target, and
//     tokens [batch][k + 1] = the accepted drafts followed by the target's next token
//     (target[accepted]), -1 after it. Grid ceil(batch / 4), 128 threads, one warp per
//     sequence: lane i compares draft i, a ballot of the mismatches (and bit k) and its
//     lowest set bit give the count.
// Both are bit-exact against their references.
// SASS: LDG.E, FSETP, SHFL.BFLY, STS/LDS, BAR.SYNC (argmax); VOTE.ANY, BREV, FLO (accept).
#pragma once

#include <span>
#include <vector>

#include "kernels/launch.h"
#include "kernels/params.h"

namespace sassim::kernels::spec_accept {

inline constexpr std::string_view kArgmaxKernel = "spec_argmax";
inline constexpr std::string_view kAcceptKernel = "spec_accept";
inline constexpr uint32_t kArgmaxThreads = 256;
inline constexpr uint32_t kAcceptThreads = 128;
inline constexpr uint32_t kSequencesPerCta = kAcceptThreads / 32;
inline constexpr uint32_t kMaxDraft = 15;

struct ArgmaxProblem {
  uint32_t rows = 40;       // batch 8 x (k + 1) 5
  uint32_t vocab = 128256;  // Llama 3's vocabulary
};
struct AcceptProblem {
  uint32_t batch = 8;
  uint32_t draft = 4;  // k
  constexpr uint32_t rows() const { return draft + 1; }
};

// Values: [ROWS [VOCAB]].
ArgmaxProblem parse_argmax_problem(ParamValues values);
// Values: [BATCH [DRAFT]], DRAFT from 1 to 15.
AcceptProblem parse_accept_problem(ParamValues values);

constexpr Launch argmax_launch(const ArgmaxProblem& p) {
  Launch l{.kernel = kArgmaxKernel, .grid = {p.rows}, .block = {kArgmaxThreads}};
  l.add(buffer_arg("logits", uint64_t{p.rows} * p.vocab * 4, Access::kRead))
      .add(buffer_arg("argmax", uint64_t{p.rows} * 4, Access::kWrite))
      .add(u32_arg("vocab", p.vocab));
  return l;
}

constexpr Launch accept_launch(const AcceptProblem& p) {
  Launch l{.kernel = kAcceptKernel,
           .grid = {ceil_div(p.batch, kSequencesPerCta)},
           .block = {kAcceptThreads}};
  l.add(buffer_arg("target", uint64_t{p.batch} * p.rows() * 4, Access::kRead))
      .add(buffer_arg("draft", uint64_t{p.batch} * p.draft * 4, Access::kRead))
      .add(buffer_arg("accepted", uint64_t{p.batch} * 4, Access::kWrite))
      .add(buffer_arg("tokens", uint64_t{p.batch} * p.rows() * 4, Access::kWrite))
      .add(u32_arg("batch", p.batch))
      .add(u32_arg("draft", p.draft));
  return l;
}

// The suite's inputs: the target's choices, token ids below 128256, and drafts of which
// sequence b accepts b % (k + 1) (so that the batch has none and all accepted), with
// drafts after the first mismatch that match again at even positions.
std::vector<int32_t> suite_targets(const AcceptProblem& p);
std::vector<int32_t> suite_drafts(const AcceptProblem& p);

void reference_argmax(const ArgmaxProblem& p, std::span<const float> logits,
                      std::span<int32_t> argmax);
void reference_accept(const AcceptProblem& p, std::span<const int32_t> target,
                      std::span<const int32_t> draft, std::span<int32_t> accepted,
                      std::span<int32_t> tokens);

}  // namespace sassim::kernels::spec_accept
