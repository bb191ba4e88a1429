#include "kernels/sgemm.h"

#include <cmath>

namespace sassim::kernels::sgemm {

Problem parse_problem(ParamValues values) {
  require_at_most(values, 3, kKernel);
  Problem p;
  p.m = param_u32(values, 0, p.m, "sgemm M");
  p.n = param_u32(values, 1, p.m, "sgemm N");
  p.k = param_u32(values, 2, p.m, "sgemm K");
  require_multiple(p.m, kTileM, "sgemm M");
  require_multiple(p.n, kTileN, "sgemm N");
  require_multiple(p.k, kTileK, "sgemm K");
  return p;
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
