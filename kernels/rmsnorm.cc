#include "kernels/rmsnorm.h"

#include <array>
#include <cmath>
#include <vector>

#include "kernels/values.h"

namespace sassim::kernels::rmsnorm {

Problem parse_problem(ParamValues values) {
  require_at_most(values, 2, kKernel);
  Problem p;
  p.tokens = param_u32(values, 0, p.tokens, "rmsnorm TOKENS");
  p.hidden = param_u32(values, 1, p.hidden, "rmsnorm HIDDEN");
  require_multiple(p.hidden, kChunk, "rmsnorm HIDDEN");
  return p;
}

void reference(const Problem& p, std::span<const uint16_t> x, std::span<const uint16_t> w,
               std::span<uint16_t> y) {
  const uint32_t chunks = p.hidden / kChunk;
  for (uint32_t row = 0; row < p.tokens; ++row) {
    const std::span<const uint16_t> xr = x.subspan(size_t{row} * p.hidden, p.hidden);
    // Each thread's sum of squares, its chunks in order.
    std::array<float, kThreads> lanes{};
    for (uint32_t t = 0; t < kThreads; ++t) {
      float sum = 0.0F;
      for (uint32_t c = t; c < chunks; c += kThreads) {
        for (uint32_t i = 0; i < kChunk; ++i) {
          const float v = bf16_to_float(xr[c * kChunk + i]);
          sum = std::fma(v, v, sum);
        }
      }
      lanes[t] = sum;
    }
    // The butterfly within each warp: every lane ends with the same value.
    float total = 0.0F;
    for (uint32_t warp = 0; warp < kWarps; ++warp) {
      std::array<float, 32> v{};
      for (uint32_t l = 0; l < 32; ++l) v[l] = lanes[warp * 32 + l];
      for (uint32_t offset = 16; offset > 0; offset /= 2) {
        std::array<float, 32> next{};
        for (uint32_t l = 0; l < 32; ++l) next[l] = v[l] + v[l ^ offset];
        v = next;
      }
      total += v[0];
    }
    const float r = 1.0F / std::sqrt(std::fma(total, 1.0F / static_cast<float>(p.hidden), kEps));
    for (uint32_t i = 0; i < p.hidden; ++i) {
      const float normed = bf16_to_float(float_to_bf16(bf16_to_float(xr[i]) * r));
      y[size_t{row} * p.hidden + i] = float_to_bf16(normed * bf16_to_float(w[i]));
    }
  }
}

}  // namespace sassim::kernels::rmsnorm
