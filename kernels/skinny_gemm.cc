#include "kernels/skinny_gemm.h"

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/values.h"

namespace sassim::kernels::skinny_gemm {

uint32_t rows_of(std::string_view kernel) {
  for (uint32_t i = 0; i < kKernels.size(); ++i)
    if (kernel == kKernels[i]) return 1U << i;
  return 0;
}

std::string_view kernel_for(uint32_t tokens) {
  if (tokens == 0 || tokens > kMaxRows) {
    throw std::invalid_argument("skinny_gemm: " + std::to_string(tokens) +
                                " rows: expected 1 to 8 (a larger batch takes a tiled GEMM)");
  }
  uint32_t i = 0;
  while ((1U << i) < tokens) ++i;
  return kKernels[i];
}

Problem parse_problem(std::string_view kernel, ParamValues values) {
  const std::string name(kernel);
  require_at_most(values, 2, name);
  Problem p;
  p.m = rows_of(kernel);
  if (p.m == 0) throw std::invalid_argument(name + ": not a skinny_gemm variant");
  p.n = param_u32(values, 0, p.n, name + " N");
  p.k = param_u32(values, 1, p.k, name + " K");
  require_multiple(p.n, kColsPerCta, name + " N");
  require_multiple(p.k, kStepK, name + " K");
  return p;
}

void reference(const Problem& p, std::span<const uint16_t> a, std::span<const uint16_t> w,
               std::span<float> c) {
  const uint32_t steps = p.k / kStepK;
  std::vector<float> lane_sums(32);
  for (uint32_t row = 0; row < p.m; ++row) {
    const uint16_t* ar = &a[size_t{row} * p.k];
    for (uint32_t col = 0; col < p.n; ++col) {
      const uint16_t* wr = &w[size_t{col} * p.k];
      for (uint32_t lane = 0; lane < 32; ++lane) {
        float sum = 0.0F;
        for (uint32_t s = 0; s < steps; ++s) {
          const size_t base = (size_t{s} * 32 + lane) * kChunk;
          for (uint32_t i = 0; i < kChunk; ++i)
            sum = std::fma(bf16_to_float(ar[base + i]), bf16_to_float(wr[base + i]), sum);
        }
        lane_sums[lane] = sum;
      }
      // The butterfly: after xor `offset`, lane l holds s[l] + s[l ^ offset].
      for (uint32_t offset = 16; offset > 0; offset /= 2) {
        std::vector<float> next(32);
        for (uint32_t lane = 0; lane < 32; ++lane)
          next[lane] = lane_sums[lane] + lane_sums[lane ^ offset];
        lane_sums = next;
      }
      c[size_t{row} * p.n + col] = lane_sums[0];
    }
  }
}

}  // namespace sassim::kernels::skinny_gemm
