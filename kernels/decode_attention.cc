#include "kernels/decode_attention.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "kernels/values.h"

namespace sassim::kernels::decode_attention {

size_t PagedReference::cache_row(uint32_t seq, uint32_t head, uint32_t token) const {
  const auto page = static_cast<size_t>(tables[size_t{seq} * p.max_pages() + token / kPageSize]);
  return ((page * p.kv_heads + head / kGroup) * kPageSize + token % kPageSize) * kHeadDim;
}

double PagedReference::dot(uint32_t row, uint32_t head, uint32_t token) const {
  const size_t qrow = (size_t{row} * p.heads() + head) * kHeadDim;
  const size_t krow = cache_row(row / rows_per_sequence, head, token);
  double sum = 0;
  for (uint32_t d = 0; d < kHeadDim; ++d)
    sum += double{bf16_to_float(q[qrow + d])} * bf16_to_float(k[krow + d]);
  return sum;
}

double PagedReference::score(uint32_t row, uint32_t head, uint32_t token) const {
  return dot(row, head, token) / std::sqrt(double{kHeadDim}) * std::log2(std::exp(1.0));
}

double PagedReference::attend(uint32_t row, uint32_t head, uint32_t begin, uint32_t end,
                              double* out) const {
  std::vector<double> s(end - begin);
  for (uint32_t t = begin; t < end; ++t) s[t - begin] = score(row, head, t);
  const double m = *std::max_element(s.begin(), s.end());
  double l = 0;
  std::fill(out, out + kHeadDim, 0.0);
  for (uint32_t t = begin; t < end; ++t) {
    const double w = std::exp2(s[t - begin] - m);
    l += w;
    const size_t vrow = cache_row(row / rows_per_sequence, head, t);
    for (uint32_t d = 0; d < kHeadDim; ++d) out[d] += w * bf16_to_float(v[vrow + d]);
  }
  for (uint32_t d = 0; d < kHeadDim; ++d) out[d] /= l;
  return m + std::log2(l);
}

Problem parse_problem(ParamValues values) {
  require_at_most(values, 3, kKernel);
  Problem p;
  p.batch = param_u32(values, 0, p.batch, "decode_attention BATCH");
  p.context = param_u32(values, 1, p.context, "decode_attention CONTEXT");
  p.kv_heads = param_u32(values, 2, p.kv_heads, "decode_attention KV_HEADS");
  return p;
}

std::vector<int32_t> context_lens(const Problem& p) {
  std::vector<int32_t> lens(p.batch);
  for (uint32_t b = 0; b < p.batch; ++b)
    lens[b] = static_cast<int32_t>(p.context - (uint64_t{b} * 389) % (p.context / 4 + 1));
  return lens;
}

std::vector<int32_t> block_tables(const Problem& p) {
  const uint64_t pages = p.num_pages();
  uint64_t stride = 7919;  // a prime; the first number from it coprime to the pool
  while (std::gcd(stride, pages) != 1) ++stride;
  std::vector<int32_t> tables(pages);
  for (uint64_t i = 0; i < pages; ++i) tables[i] = static_cast<int32_t>(i * stride % pages);
  return tables;
}

uint64_t kv_bytes_read(const Problem& p) {
  uint64_t tokens = 0;
  for (int32_t len : context_lens(p)) tokens += static_cast<uint64_t>(len);
  return tokens * p.kv_heads * kHeadDim * 2 * 2;
}

Partials reference_partials(const Problem& p, std::span<const uint16_t> q,
                            std::span<const uint16_t> k_cache, std::span<const uint16_t> v_cache) {
  const PagedReference s{p, q, k_cache, v_cache};
  const std::vector<int32_t> lens = context_lens(p);
  Partials out{std::vector<float>(partial_count(p) * kHeadDim),
               std::vector<float>(partial_count(p))};
  double o[kHeadDim];
  for (uint32_t b = 0; b < p.batch; ++b) {
    for (uint32_t h = 0; h < p.heads(); ++h) {
      for (uint32_t split = 0; split < p.splits(); ++split) {
        const uint32_t begin = split * kSplitTokens;
        const uint32_t end =
            std::min<uint32_t>(static_cast<uint32_t>(lens[b]), begin + kSplitTokens);
        if (begin >= end) continue;
        const size_t at = (size_t{b} * p.heads() + h) * p.splits() + split;
        out.lse[at] = static_cast<float>(s.attend(b, h, begin, end, o));
        for (uint32_t d = 0; d < kHeadDim; ++d) out.o[at * kHeadDim + d] = static_cast<float>(o[d]);
      }
    }
  }
  return out;
}

std::vector<float> reference_combine(const Problem& p, const Partials& partials) {
  const std::vector<int32_t> lens = context_lens(p);
  std::vector<float> out(size_t{p.batch} * p.heads() * kHeadDim);
  for (uint32_t b = 0; b < p.batch; ++b) {
    const uint32_t used = ceil_div(static_cast<uint32_t>(lens[b]), kSplitTokens);
    for (uint32_t h = 0; h < p.heads(); ++h) {
      const size_t base = (size_t{b} * p.heads() + h) * p.splits();
      double m = -INFINITY;
      for (uint32_t s = 0; s < used; ++s) m = std::max(m, double{partials.lse[base + s]});
      double l = 0;
      for (uint32_t s = 0; s < used; ++s) l += std::exp2(partials.lse[base + s] - m);
      for (uint32_t d = 0; d < kHeadDim; ++d) {
        double o = 0;
        for (uint32_t s = 0; s < used; ++s)
          o += std::exp2(partials.lse[base + s] - m) * partials.o[(base + s) * kHeadDim + d];
        out[(size_t{b} * p.heads() + h) * kHeadDim + d] = static_cast<float>(o / l);
      }
    }
  }
  return out;
}

std::vector<float> reference_naive(const Problem& p, std::span<const uint16_t> q,
                                   std::span<const uint16_t> k_cache,
                                   std::span<const uint16_t> v_cache) {
  const PagedReference s{p, q, k_cache, v_cache};
  const std::vector<int32_t> lens = context_lens(p);
  std::vector<float> out(size_t{p.batch} * p.heads() * kHeadDim);
  double o[kHeadDim];
  for (uint32_t b = 0; b < p.batch; ++b) {
    for (uint32_t h = 0; h < p.heads(); ++h) {
      s.attend(b, h, 0, static_cast<uint32_t>(lens[b]), o);
      for (uint32_t d = 0; d < kHeadDim; ++d)
        out[(size_t{b} * p.heads() + h) * kHeadDim + d] = static_cast<float>(o[d]);
    }
  }
  return out;
}

}  // namespace sassim::kernels::decode_attention
