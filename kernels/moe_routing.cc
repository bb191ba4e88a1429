#include "kernels/moe_routing.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "kernels/values.h"

namespace sassim::kernels::moe {

Routing parse_routing(ParamValues values, std::string_view kernel, size_t extra) {
  const std::string name(kernel);
  const bool topk = kernel == kTopkKernel, align = kernel == kAlignKernel;
  require_at_most(values, 3 + (topk ? 1 : align ? 2 : extra), name);
  Routing r;
  r.tokens = param_u32(values, 0, r.tokens, name + " TOKENS");
  r.experts = param_u32(values, 1, r.experts, name + " EXPERTS");
  r.top_k = param_u32(values, 2, r.top_k, name + " TOP_K");
  if (r.experts > kMaxExperts) {
    throw std::invalid_argument(name + " EXPERTS (" + std::to_string(r.experts) +
                                ") must be at most " + std::to_string(kMaxExperts));
  }
  if (r.top_k > r.experts) {
    throw std::invalid_argument(name + " TOP_K (" + std::to_string(r.top_k) +
                                ") must be at most EXPERTS (" + std::to_string(r.experts) + ")");
  }
  if (uint64_t{r.tokens} * r.top_k > kMaxPairs) {
    throw std::invalid_argument(name + " TOKENS x TOP_K must be at most " +
                                std::to_string(kMaxPairs));
  }
  r.stride = topk ? param_u32(values, 3, r.experts, name + " STRIDE") : r.experts;
  if (r.stride < r.experts) {
    throw std::invalid_argument(name + " STRIDE (" + std::to_string(r.stride) +
                                ") must be at least EXPERTS (" + std::to_string(r.experts) + ")");
  }
  if (align) {
    r.first_expert = param_count(values, 3, 0, name + " FIRST");
    r.local_experts =
        param_count(values, 4, r.experts - std::min(r.first_expert, r.experts), name + " COUNT");
    if (r.local_experts == 0 || uint64_t{r.first_expert} + r.local_experts > r.experts) {
      throw std::invalid_argument(name + " FIRST (" + std::to_string(r.first_expert) +
                                  ") and COUNT (" + std::to_string(r.local_experts) +
                                  "): expected 1 or more experts from FIRST, all below EXPERTS (" +
                                  std::to_string(r.experts) + ")");
    }
  }
  return r;
}

TopK topk_reference(const Routing& r, std::span<const float> logits) {
  TopK out{std::vector<int32_t>(r.pairs()), std::vector<float>(r.pairs())};
  for (uint32_t t = 0; t < r.tokens; ++t) {
    const float* row = &logits[size_t{t} * r.stride];
    float m = row[0];
    for (uint32_t e = 1; e < r.experts; ++e) m = std::fmax(m, row[e]);
    float sum = 0;
    for (uint32_t e = 0; e < r.experts; ++e) sum += std::exp2((row[e] - m) * kLog2e);
    const float inv = 1.0F / sum;
    float last = 0, picked = 0;
    int32_t last_id = -1;
    float* w = &out.weights[size_t{t} * r.top_k];
    for (uint32_t j = 0; j < r.top_k; ++j) {
      // The best expert ranked below the last pick (logit descending, index ascending).
      float best = -std::numeric_limits<float>::infinity();
      int32_t best_id = -1;
      for (uint32_t e = 0; e < r.experts; ++e) {
        const float v = row[e];
        const auto id = static_cast<int32_t>(e);
        const bool below = last_id < 0 || v < last || (v == last && id > last_id);
        if (below && (best_id < 0 || v > best)) {
          best = v;
          best_id = id;
        }
      }
      out.ids[size_t{t} * r.top_k + j] = best_id;
      w[j] = std::exp2((best - m) * kLog2e) * inv;
      picked += w[j];
      last = best;
      last_id = best_id;
    }
    const float norm = 1.0F / picked;
    for (uint32_t j = 0; j < r.top_k; ++j) w[j] *= norm;
  }
  return out;
}

Alignment align_reference(const Routing& r, std::span<const int32_t> ids) {
  Alignment a;
  a.sorted_ids.assign(r.max_rows(), static_cast<int32_t>(r.pairs()));
  a.tile_experts.assign(r.max_tiles(), -1);
  a.pair_rows.assign(r.pairs(), -1);
  const uint32_t local = r.local();
  // The pair's expert in the kept range, numbered from 0; `local` or more: not kept.
  auto kept = [&](uint32_t i) { return static_cast<uint32_t>(ids[i]) - r.first_expert; };
  std::vector<uint32_t> count(local, 0);
  std::vector<int32_t> start(local + 1, 0);
  for (uint32_t i = 0; i < r.pairs(); ++i)
    if (kept(i) < local) ++count[kept(i)];
  constexpr auto kTile = static_cast<int32_t>(kRowTile);
  for (uint32_t e = 0; e < local; ++e) {
    const auto padded = static_cast<int32_t>(ceil_div(count[e], kRowTile) * kRowTile);
    start[e + 1] = start[e] + padded;
    for (int32_t row = start[e]; row < start[e + 1]; row += kTile)
      a.tile_experts[static_cast<size_t>(row / kTile)] = static_cast<int32_t>(e);
  }
  a.total = start[local];
  std::vector<int32_t> next(start.begin(), start.end() - 1);
  for (uint32_t i = 0; i < r.pairs(); ++i) {
    if (kept(i) >= local) continue;
    const int32_t row = next[kept(i)]++;
    a.sorted_ids[static_cast<size_t>(row)] = static_cast<int32_t>(i);
    a.pair_rows[i] = row;
  }
  return a;
}

TopK example_topk(const Routing& r) {
  std::vector<float> logits(size_t{r.tokens} * r.stride);
  fill_dyadic(logits, 1);
  return topk_reference(r, logits);
}

}  // namespace sassim::kernels::moe
