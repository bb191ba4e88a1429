#include "kernels/transpose.h"

namespace sassim::kernels::transpose {

Problem parse_problem(ParamValues values) {
  require_at_most(values, 2, "transpose");
  Problem p;
  p.rows = param_u32(values, 0, p.rows, "transpose ROWS");
  p.cols = param_u32(values, 1, p.rows, "transpose COLS");
  require_multiple(p.rows, kTile, "transpose ROWS");
  require_multiple(p.cols, kTile, "transpose COLS");
  return p;
}

void reference(const Problem& p, std::span<const float> in, std::span<float> out) {
  for (uint64_t r = 0; r < p.rows; ++r) {
    for (uint64_t c = 0; c < p.cols; ++c) out[c * p.rows + r] = in[r * p.cols + c];
  }
}

}  // namespace sassim::kernels::transpose
