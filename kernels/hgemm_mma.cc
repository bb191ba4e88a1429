#include "kernels/hgemm_mma.h"

#include "kernels/values.h"

namespace sassim::kernels::hgemm_mma {

Problem parse_problem(ParamValues values) {
  return parse_gemm_problem(values, kKernel, kTileM, kTileN, kTileK);
}

void reference(const Problem& p, std::span<const uint16_t> a, std::span<const uint16_t> bt,
               std::span<float> c) {
  gemm_tn_reference(p, a, bt, c, half_to_float);
}

}  // namespace sassim::kernels::hgemm_mma
