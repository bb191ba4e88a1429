#include "kernels/bf16_gemm_wgmma.h"

#include "kernels/values.h"

namespace sassim::kernels::bf16_gemm_wgmma {

Problem parse_problem(ParamValues values) {
  return parse_gemm_problem(values, kKernel, kTileM, kTileN, kTileK);
}

void reference(const Problem& p, std::span<const uint16_t> a, std::span<const uint16_t> bt,
               std::span<float> c) {
  gemm_tn_reference(p, a, bt, c, bf16_to_float);
}

}  // namespace sassim::kernels::bf16_gemm_wgmma
