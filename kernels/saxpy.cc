#include "kernels/saxpy.h"

#include <cmath>

namespace sassim::kernels::saxpy {

Problem parse_problem(ParamValues values) {
  require_at_most(values, 1, kKernel);
  return Problem{.n = param_u32(values, 0, Problem{}.n, "saxpy N")};
}

void reference(std::span<const float> x, std::span<float> y, float alpha) {
  for (size_t i = 0; i < y.size(); ++i) y[i] = std::fma(alpha, x[i], y[i]);
}

}  // namespace sassim::kernels::saxpy
