// The problem size shared by the suite's GEMMs, its parsing from a suite line, and the
// CPU reference of the 16-bit-input "TN" GEMMs (C = A * B^T, FP32 accumulation).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "kernels/params.h"

namespace sassim::kernels {

struct GemmProblem {
  uint32_t m = 1024;
  uint32_t n = 1024;
  uint32_t k = 1024;
};

// Values: [M [N [K]]]; N and K default to M; each must be a multiple of its tile.
// Errors name the kernel ("hgemm_mma K: ...").
GemmProblem parse_gemm_problem(ParamValues values, std::string_view kernel, uint32_t tile_m,
                               uint32_t tile_n, uint32_t tile_k);

// C (M x N, FP32) = A (M x K) * Bt (N x K)^T, both row-major 16-bit values turned into
// floats by to_float, accumulated with one FMA per product in k order.
void gemm_tn_reference(const GemmProblem& p, std::span<const uint16_t> a,
                       std::span<const uint16_t> bt, std::span<float> c,
                       float (*to_float)(uint16_t));

}  // namespace sassim::kernels
