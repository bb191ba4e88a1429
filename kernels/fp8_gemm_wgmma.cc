#include "kernels/fp8_gemm_wgmma.h"

#include <vector>

#include "kernels/e4m3.h"

namespace sassim::kernels::fp8_gemm_wgmma {

Problem parse_problem(ParamValues values) {
  return gemm_ws::parse_problem(values, kKernel, kElementBytes);
}

void reference(const Problem& p, std::span<const uint8_t> a, std::span<const uint8_t> bt,
               float scale_a, float scale_b, std::span<float> c) {
  std::vector<float> table(256);
  for (uint32_t code = 0; code < 256; ++code)
    table[code] = e4m3_to_float(static_cast<uint8_t>(code));
  const float scale = scale_a * scale_b;
  for (uint32_t i = 0; i < p.m; ++i) {
    for (uint32_t j = 0; j < p.n; ++j) {
      const uint8_t* x = &a[size_t{i} * p.k];
      const uint8_t* y = &bt[size_t{j} * p.k];
      float sum = 0.0F;
      for (uint32_t kk = 0; kk < p.k; ++kk) sum += table[x[kk]] * table[y[kk]];
      c[size_t{i} * p.n + j] = sum * scale;
    }
  }
}

}  // namespace sassim::kernels::fp8_gemm_wgmma
