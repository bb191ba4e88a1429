#include "kernels/decode_attention_tc.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "kernels/values.h"

namespace sassim::kernels::decode_attention_tc {
namespace {

using namespace decode_attention;

// One warp's running state over its pages, for one query head.
struct WarpState {
  float m = -1e30F;  // the kernel's start: below any score, exp2 of the gap is 0
  double l = 0;
  std::array<double, kHeadDim> acc{};
};

// The kernel's steps for one page: FP32 scores, the running max, BF16 weights for P V.
void take_page(const PagedReference& r, uint32_t seq, uint32_t head, uint32_t page,
               uint32_t context, WarpState& w) {
  std::array<float, kPageSize> s{};
  float page_max = -INFINITY;
  for (uint32_t t = 0; t < kPageSize; ++t) {
    const uint32_t token = page * kPageSize + t;
    s[t] = token < context ? static_cast<float>(r.dot(seq, head, token)) * kScaleLog2 : -INFINITY;
    page_max = std::max(page_max, s[t]);
  }
  const float new_m = std::max(w.m, page_max);
  const double rescale = std::exp2(w.m - new_m);
  w.m = new_m;
  w.l *= rescale;
  for (double& a : w.acc) a *= rescale;
  for (uint32_t t = 0; t < kPageSize; ++t) {
    const uint32_t token = page * kPageSize + t;
    if (token >= context) continue;
    const float weight = std::exp2(s[t] - new_m);
    w.l += weight;
    const double rounded = bf16_to_float(float_to_bf16(weight));
    const size_t vrow = r.cache_row(seq, head, token);
    for (uint32_t d = 0; d < kHeadDim; ++d) w.acc[d] += rounded * bf16_to_float(r.v[vrow + d]);
  }
}

}  // namespace

Partials reference_partials(const Problem& p, std::span<const uint16_t> q,
                            std::span<const uint16_t> k_cache, std::span<const uint16_t> v_cache) {
  const PagedReference r{p, q, k_cache, v_cache};
  const std::vector<int32_t> lens = context_lens(p);
  Partials out{std::vector<float>(partial_count(p) * kHeadDim),
               std::vector<float>(partial_count(p))};
  for (uint32_t b = 0; b < p.batch; ++b) {
    const auto context = static_cast<uint32_t>(lens[b]);
    const uint32_t end_page = std::min(ceil_div(context, kPageSize), p.splits() * kSplitPages);
    for (uint32_t h = 0; h < p.heads(); ++h) {
      for (uint32_t split = 0; split < p.splits(); ++split) {
        if (split * kSplitTokens >= context) continue;
        std::array<WarpState, kWarps> warps;
        for (uint32_t w = 0; w < kWarps; ++w) {
          const uint32_t last = std::min(end_page, (split + 1) * kSplitPages);
          for (uint32_t page = split * kSplitPages + w; page < last; page += kWarps)
            take_page(r, b, h, page, context, warps[w]);
        }
        float big = warps[0].m;
        for (const WarpState& w : warps) big = std::max(big, w.m);
        double sum = 0;
        std::array<double, kHeadDim> o{};
        for (const WarpState& w : warps) {
          const double scale = std::exp2(w.m - big);
          sum += w.l * scale;
          for (uint32_t d = 0; d < kHeadDim; ++d) o[d] += w.acc[d] * scale;
        }
        const size_t at = (size_t{b} * p.heads() + h) * p.splits() + split;
        out.lse[at] = static_cast<float>(big + std::log2(sum));
        for (uint32_t d = 0; d < kHeadDim; ++d)
          out.o[at * kHeadDim + d] = static_cast<float>(o[d] / sum);
      }
    }
  }
  return out;
}

}  // namespace sassim::kernels::decode_attention_tc
