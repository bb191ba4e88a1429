#include "kernels/gemm_problem.h"

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace sassim::kernels {

GemmProblem parse_gemm_problem(ParamValues values, std::string_view kernel, uint32_t tile_m,
                               uint32_t tile_n, uint32_t tile_k) {
  require_at_most(values, 3, kernel);
  const std::string name(kernel);
  if (values.size() == 2) {
    // M alone is a square problem; M and N without K is ambiguous.
    throw std::invalid_argument(name + " takes M (a square problem) or M N K: found 2 values");
  }
  GemmProblem p;
  p.m = param_u32(values, 0, p.m, name + " M");
  p.n = param_u32(values, 1, p.m, name + " N");
  p.k = param_u32(values, 2, p.m, name + " K");
  require_multiple(p.m, tile_m, name + " M");
  require_multiple(p.n, tile_n, name + " N");
  require_multiple(p.k, tile_k, name + " K");
  return p;
}

void gemm_tn_reference(const GemmProblem& p, std::span<const uint16_t> a,
                       std::span<const uint16_t> bt, std::span<float> c,
                       float (*to_float)(uint16_t)) {
  std::vector<float> a_row(p.k);
  std::vector<float> b_t(uint64_t{p.n} * p.k);
  for (uint64_t i = 0; i < b_t.size(); ++i) b_t[i] = to_float(bt[i]);
  for (uint64_t row = 0; row < p.m; ++row) {
    for (uint64_t i = 0; i < p.k; ++i) a_row[i] = to_float(a[row * p.k + i]);
    for (uint64_t col = 0; col < p.n; ++col) {
      const float* b_row = &b_t[col * p.k];
      float acc = 0.0F;
      for (uint64_t i = 0; i < p.k; ++i) acc = std::fma(a_row[i], b_row[i], acc);
      c[row * p.n + col] = acc;
    }
  }
}

}  // namespace sassim::kernels
