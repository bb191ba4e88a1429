#include "kernels/bf16_gemm_ws.h"

namespace sassim::kernels::bf16_gemm_ws {

Problem parse_problem(ParamValues values) {
  return gemm_ws::parse_problem(values, kKernel, kElementBytes);
}

}  // namespace sassim::kernels::bf16_gemm_ws
