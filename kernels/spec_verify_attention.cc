#include "kernels/spec_verify_attention.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "kernels/values.h"

namespace sassim::kernels::spec_verify_attention {

Problem parse_problem(ParamValues values) {
  require_at_most(values, 4, kKernel);
  Problem p;
  p.batch = param_u32(values, 0, p.batch, "spec_verify_attention BATCH");
  p.context = param_u32(values, 1, p.context, "spec_verify_attention CONTEXT");
  p.draft = param_u32(values, 2, p.draft, "spec_verify_attention DRAFT");
  p.kv_heads = param_u32(values, 3, p.kv_heads, "spec_verify_attention KV_HEADS");
  if (p.draft > kMaxDraft) {
    throw std::invalid_argument("spec_verify_attention DRAFT (" + std::to_string(p.draft) +
                                ") must be at most " + std::to_string(kMaxDraft));
  }
  if (p.context < 2 * p.rows()) {
    throw std::invalid_argument(
        "spec_verify_attention CONTEXT (" + std::to_string(p.context) +
        ") must be at least 2 (DRAFT + 1) = " + std::to_string(2 * p.rows()));
  }
  return p;
}

std::vector<int32_t> context_lens(const Problem& p) {
  return da::context_lens(p.cache());
}

std::vector<int32_t> row_lens(const Problem& p) {
  const std::vector<int32_t> lens = context_lens(p);
  std::vector<int32_t> rows(size_t{p.batch} * p.rows());
  for (uint32_t b = 0; b < p.batch; ++b) {
    for (uint32_t i = 0; i < p.rows(); ++i)
      rows[size_t{b} * p.rows() + i] = lens[b] - static_cast<int32_t>(p.draft - i);
  }
  return rows;
}

da::Partials reference_partials(const Problem& p, std::span<const uint16_t> q,
                                std::span<const uint16_t> k_cache,
                                std::span<const uint16_t> v_cache) {
  const da::Problem cache = p.cache();
  const da::PagedReference r{cache, q, k_cache, v_cache, p.rows()};
  const std::vector<int32_t> lens = row_lens(p);
  da::Partials out{std::vector<float>(partial_count(p) * kHeadDim),
                   std::vector<float>(partial_count(p))};
  double o[kHeadDim];
  for (uint32_t row = 0; row < p.batch * p.rows(); ++row) {
    for (uint32_t h = 0; h < p.heads(); ++h) {
      for (uint32_t split = 0; split < p.splits(); ++split) {
        const uint32_t begin = split * da::kSplitTokens;
        const uint32_t end =
            std::min<uint32_t>(static_cast<uint32_t>(lens[row]), begin + da::kSplitTokens);
        if (begin >= end) continue;
        const size_t at = (size_t{row} * p.heads() + h) * p.splits() + split;
        out.lse[at] = static_cast<float>(r.attend(row, h, begin, end, o));
        for (uint32_t d = 0; d < kHeadDim; ++d) out.o[at * kHeadDim + d] = static_cast<float>(o[d]);
      }
    }
  }
  return out;
}

std::vector<float> reference_combine(const Problem& p, const da::Partials& partials) {
  return reference_combine_rows(p.row_problem(), partials, row_lens(p));
}

std::vector<float> reference_combine_rows(const da::Problem& rows, const da::Partials& partials,
                                          std::span<const int32_t> lens) {
  std::vector<float> out(size_t{rows.batch} * rows.heads() * kHeadDim);
  for (uint32_t row = 0; row < rows.batch; ++row) {
    const uint32_t used = ceil_div(static_cast<uint32_t>(lens[row]), da::kSplitTokens);
    for (uint32_t h = 0; h < rows.heads(); ++h) {
      const size_t base = (size_t{row} * rows.heads() + h) * rows.splits();
      double m = -INFINITY;
      for (uint32_t s = 0; s < used; ++s) m = std::max(m, double{partials.lse[base + s]});
      double l = 0;
      for (uint32_t s = 0; s < used; ++s) l += std::exp2(partials.lse[base + s] - m);
      for (uint32_t d = 0; d < kHeadDim; ++d) {
        double o = 0;
        for (uint32_t s = 0; s < used; ++s)
          o += std::exp2(partials.lse[base + s] - m) * partials.o[(base + s) * kHeadDim + d];
        out[(size_t{row} * rows.heads() + h) * kHeadDim + d] = static_cast<float>(o / l);
      }
    }
  }
  return out;
}

uint32_t draft_of_row_lens(const da::Problem& rows, std::span<const int32_t> lens) {
  for (uint32_t k = 1; k <= kMaxDraft; ++k) {
    if (rows.batch % (k + 1) != 0 || rows.context < 2 * (k + 1)) continue;
    const Problem p{.batch = rows.batch / (k + 1),
                    .context = rows.context,
                    .draft = k,
                    .kv_heads = rows.kv_heads};
    const std::vector<int32_t> want = row_lens(p);
    if (std::equal(want.begin(), want.end(), lens.begin(), lens.end())) return k;
  }
  return 0;
}

std::vector<float> reference_naive(const Problem& p, std::span<const uint16_t> q,
                                   std::span<const uint16_t> k_cache,
                                   std::span<const uint16_t> v_cache) {
  const da::Problem cache = p.cache();
  const da::PagedReference r{cache, q, k_cache, v_cache, p.rows()};
  const std::vector<int32_t> lens = row_lens(p);
  std::vector<float> out(size_t{p.batch} * p.rows() * p.heads() * kHeadDim);
  double o[kHeadDim];
  for (uint32_t row = 0; row < p.batch * p.rows(); ++row) {
    for (uint32_t h = 0; h < p.heads(); ++h) {
      r.attend(row, h, 0, static_cast<uint32_t>(lens[row]), o);
      for (uint32_t d = 0; d < kHeadDim; ++d)
        out[(size_t{row} * p.heads() + h) * kHeadDim + d] = static_cast<float>(o[d]);
    }
  }
  return out;
}

}  // namespace sassim::kernels::spec_verify_attention
