#include "kernels/sgemm.h"

#include <cmath>

namespace sassim::kernels::sgemm {

Problem parse_problem(ParamValues values) {
  return parse_gemm_problem(values, kKernel, kTileM, kTileN, kTileK);
}

void reference(const Problem& p, std::span<const float> a, std::span<const float> b,
               std::span<float> c, float alpha, float beta) {
  for (uint64_t row = 0; row < p.m; ++row) {
    for (uint64_t col = 0; col < p.n; ++col) {
      float acc = 0.0F;
      for (uint64_t i = 0; i < p.k; ++i) acc = std::fma(a[row * p.k + i], b[i * p.n + col], acc);
      float& out = c[row * p.n + col];
      out = std::fma(alpha, acc, beta * out);
    }
  }
}

}  // namespace sassim::kernels::sgemm
