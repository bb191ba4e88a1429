#include "kernels/moe_gather.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "kernels/values.h"

namespace sassim::kernels::moe {

Gather parse_gather(ParamValues values, std::string_view kernel) {
  const std::string name(kernel);
  Gather g;
  g.routing = parse_routing(values, kernel, 1);
  g.hidden = param_u32(values, 3, g.hidden, name + " HIDDEN");
  require_multiple(g.hidden, kGatherChunk, name + " HIDDEN");
  return g;
}

void permute_reference(const Gather& g, std::span<const uint16_t> x,
                       std::span<const int32_t> sorted_ids, int32_t total,
                       std::span<uint16_t> rows) {
  const Routing& r = g.routing;
  for (uint32_t row = 0; row < r.max_rows() && static_cast<int32_t>(row) < total; ++row) {
    const auto pair = static_cast<uint32_t>(sorted_ids[row]);
    uint16_t* dst = &rows[size_t{row} * g.hidden];
    if (pair >= r.pairs()) {
      std::fill(dst, dst + g.hidden, uint16_t{0});
      continue;
    }
    const uint16_t* src = &x[size_t{pair / r.top_k} * g.hidden];
    std::copy(src, src + g.hidden, dst);
  }
}

void unpermute_reference(const Gather& g, std::span<const float> c,
                         std::span<const int32_t> pair_rows, std::span<const float> weights,
                         std::span<const uint16_t> residual, std::span<uint16_t> out) {
  const Routing& r = g.routing;
  for (uint32_t t = 0; t < r.tokens; ++t) {
    for (uint32_t j = 0; j < g.hidden; ++j) {
      float acc = 0;
      for (uint32_t s = 0; s < r.top_k; ++s) {
        const size_t pair = size_t{t} * r.top_k + s;
        const auto row = static_cast<size_t>(pair_rows[pair]);
        acc = std::fma(weights[pair], c[row * g.hidden + j], acc);
      }
      acc += bf16_to_float(residual[size_t{t} * g.hidden + j]);
      out[size_t{t} * g.hidden + j] = float_to_bf16(acc);
    }
  }
}

}  // namespace sassim::kernels::moe
