#include "kernels/bf16_gemm_wgmma.h"

#include <cmath>
#include <vector>

#include "kernels/values.h"

namespace sassim::kernels::bf16_gemm_wgmma {

Problem parse_problem(ParamValues values) {
  require_at_most(values, 3, kKernel);
  Problem p;
  p.m = param_u32(values, 0, p.m, "bf16_gemm_wgmma M");
  p.n = param_u32(values, 1, p.m, "bf16_gemm_wgmma N");
  p.k = param_u32(values, 2, p.m, "bf16_gemm_wgmma K");
  require_multiple(p.m, kTileM, "bf16_gemm_wgmma M");
  require_multiple(p.n, kTileN, "bf16_gemm_wgmma N");
  require_multiple(p.k, kTileK, "bf16_gemm_wgmma K");
  return p;
}

void reference(const Problem& p, std::span<const uint16_t> a, std::span<const uint16_t> bt,
               std::span<float> c) {
  std::vector<float> a_row(p.k);
  std::vector<float> b_t(uint64_t{p.n} * p.k);
  for (uint64_t i = 0; i < b_t.size(); ++i) b_t[i] = bf16_to_float(bt[i]);
  for (uint64_t row = 0; row < p.m; ++row) {
    for (uint64_t i = 0; i < p.k; ++i) a_row[i] = bf16_to_float(a[row * p.k + i]);
    for (uint64_t col = 0; col < p.n; ++col) {
      const float* b_row = &b_t[col * p.k];
      float acc = 0.0F;
      for (uint64_t i = 0; i < p.k; ++i) acc = std::fma(a_row[i], b_row[i], acc);
      c[row * p.n + col] = acc;
    }
  }
}

}  // namespace sassim::kernels::bf16_gemm_wgmma
