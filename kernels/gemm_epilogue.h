// gemm_epilogue: what a production GEMM does in its epilogue and the suite's GEMMs
// (hgemm_mma, bf16_gemm_wgmma: FP32 C) do not, as a launch of its own, so that a decoder
// layer (`sassim workload`, docs/LLM.md) can feed a GEMM's output to the BF16 kernels after
// it:
//   - cast_bf16:    out[r][j] = bf16(c[r * ldc + j]);
//   - residual_add: out[r][j] = bf16(c[r * ldc + j] + residual[r][j]), the add in FP32
//     (vLLM's fused_add_rms_norm adds in FP32 too), residual and out BF16 [rows][cols].
// c may be a column slice of a wider matrix (ldc > cols): the Q, K and V parts of a fused
// QKV projection's output.
//   - grid (ceil(cols / 2048), rows), 256 threads, each 8 values: two 16-byte loads of c,
//     one of the residual, one 16-byte store;
//   - rounding to nearest even (F2FP.BF16), exactly as the reference.
// SASS: LDG.E.128, FADD, F2FP.BF16, STG.E.128.
#pragma once

#include <span>

#include "kernels/launch.h"
#include "kernels/params.h"

namespace sassim::kernels::gemm_epilogue {

inline constexpr std::string_view kCastKernel = "cast_bf16";
inline constexpr std::string_view kResidualKernel = "residual_add";
inline constexpr uint32_t kThreads = 256;
inline constexpr uint32_t kChunk = 8;  // values per thread

struct Problem {
  uint32_t rows = 32;
  uint32_t cols = 4096;
  uint32_t ldc = 4096;  // FP32 values from one row of c to the next
};

// Values: [ROWS [COLS [LDC]]]; COLS a multiple of 8, LDC (default COLS) a multiple of 4
// and at least COLS.
Problem parse_problem(ParamValues values);

// FP32 values of c a launch reads: rows - 1 full rows and the last row's cols.
constexpr uint64_t c_floats(const Problem& p) {
  return p.rows == 0 ? 0 : uint64_t{p.rows - 1} * p.ldc + p.cols;
}

constexpr Launch launch(std::string_view kernel, const Problem& p) {
  Launch l{
      .kernel = kernel, .grid = {ceil_div(p.cols / kChunk, kThreads), p.rows}, .block = {kThreads}};
  const uint64_t out_bytes = uint64_t{p.rows} * p.cols * 2;
  l.add(buffer_arg("c", c_floats(p) * 4, Access::kRead));
  if (kernel == kResidualKernel) l.add(buffer_arg("residual", out_bytes, Access::kRead));
  l.add(buffer_arg("out", out_bytes, Access::kWrite))
      .add(u32_arg("cols", p.cols))
      .add(u32_arg("ldc", p.ldc));
  return l;
}

// out (BF16 bits) from c (FP32) and, when not empty, residual (BF16 bits).
void reference(const Problem& p, std::span<const float> c, std::span<const uint16_t> residual,
               std::span<uint16_t> out);

}  // namespace sassim::kernels::gemm_epilogue
