#include "kernels/stream.h"

#include <cmath>

namespace sassim::kernels::stream {

Problem parse_problem(ParamValues values) {
  require_at_most(values, 1, "stream");
  return Problem{.n = param_u32(values, 0, Problem{}.n, "stream N")};
}

void copy_reference(std::span<const float> a, std::span<float> c) {
  for (size_t i = 0; i < c.size(); ++i) c[i] = a[i];
}

void triad_reference(std::span<float> a, std::span<const float> b, std::span<const float> c,
                     float scalar) {
  for (size_t i = 0; i < a.size(); ++i) a[i] = std::fma(scalar, c[i], b[i]);
}

}  // namespace sassim::kernels::stream
