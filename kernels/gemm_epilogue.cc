#include "kernels/gemm_epilogue.h"

#include <stdexcept>
#include <string>

#include "kernels/values.h"

namespace sassim::kernels::gemm_epilogue {

Problem parse_problem(ParamValues values) {
  require_at_most(values, 3, "gemm_epilogue");
  Problem p;
  p.rows = param_u32(values, 0, p.rows, "gemm_epilogue ROWS");
  p.cols = param_u32(values, 1, p.cols, "gemm_epilogue COLS");
  p.ldc = param_u32(values, 2, p.cols, "gemm_epilogue LDC");
  require_multiple(p.cols, kChunk, "gemm_epilogue COLS");
  require_multiple(p.ldc, 4, "gemm_epilogue LDC");
  if (p.ldc < p.cols) {
    throw std::invalid_argument("gemm_epilogue LDC: " + std::to_string(p.ldc) +
                                " is less than COLS " + std::to_string(p.cols));
  }
  return p;
}

void reference(const Problem& p, std::span<const float> c, std::span<const uint16_t> residual,
               std::span<uint16_t> out) {
  for (uint32_t r = 0; r < p.rows; ++r) {
    for (uint32_t j = 0; j < p.cols; ++j) {
      const size_t o = size_t{r} * p.cols + j;
      float v = c[size_t{r} * p.ldc + j];
      if (!residual.empty()) v += bf16_to_float(residual[o]);
      out[o] = float_to_bf16(v);
    }
  }
}

}  // namespace sassim::kernels::gemm_epilogue
