#include "kernels/vector_add.h"

namespace sassim::kernels::vector_add {

Problem parse_problem(ParamValues values) {
  require_at_most(values, 1, kKernel);
  return Problem{.n = param_u32(values, 0, Problem{}.n, "vectoradd N")};
}

void reference(std::span<const float> a, std::span<const float> b, std::span<float> c) {
  for (size_t i = 0; i < c.size(); ++i) c[i] = a[i] + b[i];
}

}  // namespace sassim::kernels::vector_add
