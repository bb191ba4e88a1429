#include "kernels/reduction.h"

#include <array>

namespace sassim::kernels::reduction {
namespace {

// One warp's __shfl_down_sync tree: lane i adds lane i + offset (its own value when that
// lane is past 31, as the hardware returns it); the result is lane 0's value.
float warp_reduce(std::array<float, 32> lanes) {
  for (uint32_t offset = 16; offset > 0; offset /= 2) {
    std::array<float, 32> next{};
    for (uint32_t lane = 0; lane < 32; ++lane) {
      next[lane] = lanes[lane] + (lane + offset < 32 ? lanes[lane + offset] : lanes[lane]);
    }
    lanes = next;
  }
  return lanes[0];
}

}  // namespace

Problem parse_problem(ParamValues values) {
  require_at_most(values, 2, kKernel);
  Problem p;
  p.n = param_u32(values, 0, p.n, "reduce_sum N");
  p.ctas = param_u32(values, 1, p.ctas, "reduce_sum CTAS");
  return p;
}

std::vector<float> reference_partials(const Problem& p, std::span<const float> input) {
  const uint64_t stride = uint64_t{p.ctas} * kBlockThreads;
  std::vector<float> partials(p.ctas);
  for (uint32_t cta = 0; cta < p.ctas; ++cta) {
    std::array<float, kWarps> warp_sums{};
    for (uint32_t warp = 0; warp < kWarps; ++warp) {
      std::array<float, 32> lanes{};
      for (uint32_t lane = 0; lane < 32; ++lane) {
        float sum = 0.0F;
        for (uint64_t i = uint64_t{cta} * kBlockThreads + warp * 32 + lane; i < p.n; i += stride)
          sum += input[i];
        lanes[lane] = sum;
      }
      warp_sums[warp] = warp_reduce(lanes);
    }
    std::array<float, 32> lanes{};
    for (uint32_t w = 0; w < kWarps; ++w) lanes[w] = warp_sums[w];
    partials[cta] = warp_reduce(lanes);
  }
  return partials;
}

double exact_sum(std::span<const float> input) {
  double sum = 0.0;
  for (float v : input) sum += v;
  return sum;
}

}  // namespace sassim::kernels::reduction
