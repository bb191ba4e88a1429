#include "kernels/spec_accept.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace sassim::kernels::spec_accept {

ArgmaxProblem parse_argmax_problem(ParamValues values) {
  require_at_most(values, 2, kArgmaxKernel);
  ArgmaxProblem p;
  p.rows = param_u32(values, 0, p.rows, "spec_argmax ROWS");
  p.vocab = param_u32(values, 1, p.vocab, "spec_argmax VOCAB");
  return p;
}

AcceptProblem parse_accept_problem(ParamValues values) {
  require_at_most(values, 2, kAcceptKernel);
  AcceptProblem p;
  p.batch = param_u32(values, 0, p.batch, "spec_accept BATCH");
  p.draft = param_u32(values, 1, p.draft, "spec_accept DRAFT");
  if (p.draft > kMaxDraft) {
    throw std::invalid_argument("spec_accept DRAFT (" + std::to_string(p.draft) +
                                ") must be at most " + std::to_string(kMaxDraft));
  }
  return p;
}

std::vector<int32_t> suite_targets(const AcceptProblem& p) {
  std::vector<int32_t> target(size_t{p.batch} * p.rows());
  for (size_t i = 0; i < target.size(); ++i)
    target[i] = static_cast<int32_t>((i * 7919 + 17) % 128256);
  return target;
}

std::vector<int32_t> suite_drafts(const AcceptProblem& p) {
  const std::vector<int32_t> target = suite_targets(p);
  std::vector<int32_t> draft(size_t{p.batch} * p.draft);
  for (uint32_t b = 0; b < p.batch; ++b) {
    const uint32_t accepted = b % p.rows();
    for (uint32_t i = 0; i < p.draft; ++i) {
      const int32_t t = target[size_t{b} * p.rows() + i];
      const bool match = i < accepted || (i > accepted && i % 2 == 0);
      draft[size_t{b} * p.draft + i] = match ? t : (t + 1) % 128256;
    }
  }
  return draft;
}

void reference_argmax(const ArgmaxProblem& p, std::span<const float> logits,
                      std::span<int32_t> argmax) {
  for (uint32_t r = 0; r < p.rows; ++r) {
    float best = -INFINITY;
    int32_t index = 0;
    for (uint32_t i = 0; i < p.vocab; ++i) {
      const float v = logits[size_t{r} * p.vocab + i];
      if (v > best) {
        best = v;
        index = static_cast<int32_t>(i);
      }
    }
    argmax[r] = index;
  }
}

void reference_accept(const AcceptProblem& p, std::span<const int32_t> target,
                      std::span<const int32_t> draft, std::span<int32_t> accepted,
                      std::span<int32_t> tokens) {
  for (uint32_t b = 0; b < p.batch; ++b) {
    uint32_t n = 0;
    while (n < p.draft && draft[size_t{b} * p.draft + n] == target[size_t{b} * p.rows() + n]) ++n;
    accepted[b] = static_cast<int32_t>(n);
    for (uint32_t i = 0; i < p.rows(); ++i) {
      tokens[size_t{b} * p.rows() + i] = i < n    ? draft[size_t{b} * p.draft + i]
                                         : i == n ? target[size_t{b} * p.rows() + n]
                                                  : -1;
    }
  }
}

}  // namespace sassim::kernels::spec_accept
