// skinny_gemm_m1 .. _m8: see skinny_gemm.h.
#include <cstdint>

#include "kernels/bf16_vec.cuh"
#include "kernels/cuda_host.cuh"
#include "kernels/skinny_gemm.h"
#include "kernels/values.h"

namespace {

namespace cfg = sassim::kernels::skinny_gemm;
using sassim::kernels::bf16x8_to_float;

constexpr uint32_t kCols = cfg::kColsPerWarp;

template <uint32_t M>
__device__ __forceinline__ void skinny(const uint4* __restrict__ a, const uint4* __restrict__ w,
                                       float* __restrict__ c, uint32_t n, uint32_t k) {
  const uint32_t lane = threadIdx.x % 32;
  const uint32_t col0 = (blockIdx.x * (cfg::kThreads / 32) + threadIdx.x / 32) * kCols;
  const uint32_t chunks = k / cfg::kChunk;  // 16-byte chunks per row
  const uint32_t steps = k / cfg::kStepK;
  const uint4* wr = w + static_cast<size_t>(col0) * chunks + lane;
  const uint4* ar = a + lane;
  float acc[kCols][M];
#pragma unroll
  for (uint32_t j = 0; j < kCols; ++j)
#pragma unroll
    for (uint32_t m = 0; m < M; ++m) acc[j][m] = 0.0F;
  uint4 now[kCols];
#pragma unroll
  for (uint32_t j = 0; j < kCols; ++j) now[j] = __ldg(wr + j * chunks);
  for (uint32_t s = 0; s < steps; ++s) {
    uint4 next[kCols];
    if (s + 1 < steps) {
#pragma unroll
      for (uint32_t j = 0; j < kCols; ++j) next[j] = __ldg(wr + j * chunks + (s + 1) * 32);
    }
    float wf[kCols][8];
#pragma unroll
    for (uint32_t j = 0; j < kCols; ++j) bf16x8_to_float(now[j], wf[j]);
#pragma unroll
    for (uint32_t m = 0; m < M; ++m) {
      float af[8];
      bf16x8_to_float(__ldg(ar + m * chunks + s * 32), af);
#pragma unroll
      for (uint32_t j = 0; j < kCols; ++j)
#pragma unroll
        for (uint32_t i = 0; i < 8; ++i) acc[j][m] = __fmaf_rn(af[i], wf[j][i], acc[j][m]);
    }
#pragma unroll
    for (uint32_t j = 0; j < kCols; ++j) now[j] = next[j];
  }
#pragma unroll
  for (uint32_t j = 0; j < kCols; ++j)
#pragma unroll
    for (uint32_t m = 0; m < M; ++m)
#pragma unroll
      for (uint32_t offset = 16; offset > 0; offset /= 2)
        acc[j][m] = __fadd_rn(acc[j][m], __shfl_xor_sync(0xffffffffU, acc[j][m], offset));
  if (lane != 0) return;
#pragma unroll
  for (uint32_t m = 0; m < M; ++m) {
    *reinterpret_cast<float4*>(c + static_cast<size_t>(m) * n + col0) =
        make_float4(acc[0][m], acc[1][m], acc[2][m], acc[3][m]);
  }
}

}  // namespace

#define SASSIM_SKINNY_GEMM(M)                                                                  \
  extern "C" __global__ void __launch_bounds__(128)                                           \
      skinny_gemm_m##M(const uint4* __restrict__ a, const uint4* __restrict__ w,                \
                       float* __restrict__ c, uint32_t n, uint32_t k) {                        \
    skinny<M>(a, w, c, n, k);                                                                  \
  }
SASSIM_SKINNY_GEMM(1)
SASSIM_SKINNY_GEMM(2)
SASSIM_SKINNY_GEMM(4)
SASSIM_SKINNY_GEMM(8)
#undef SASSIM_SKINNY_GEMM

namespace {

bool run(std::string_view kernel, sassim::kernels::ParamValues values) {
  using namespace sassim::kernels;
  const auto p = cfg::parse_problem(kernel, values);
  std::vector<uint16_t> ha(size_t{p.m} * p.k), hw(size_t{p.n} * p.k);
  fill_dyadic_bf16(ha, 1);
  fill_dyadic_bf16(hw, 2);
  std::vector<float> want(size_t{p.m} * p.n);
  cfg::reference(p, ha, hw, want);
  DeviceBuffer<uint16_t> da(ha), dw(hw);
  DeviceBuffer<float> dc(want.size());
  const Launch config = cfg::launch(p);
  print_launch(config);
  const auto* a = reinterpret_cast<const uint4*>(da.get());
  const auto* w = reinterpret_cast<const uint4*>(dw.get());
  const dim3 grid = to_dim3(config.grid), block = to_dim3(config.block);
  switch (p.m) {
    case 1: ::skinny_gemm_m1<<<grid, block>>>(a, w, dc.get(), p.n, p.k); break;
    case 2: ::skinny_gemm_m2<<<grid, block>>>(a, w, dc.get(), p.n, p.k); break;
    case 4: ::skinny_gemm_m4<<<grid, block>>>(a, w, dc.get(), p.n, p.k); break;
    default: ::skinny_gemm_m8<<<grid, block>>>(a, w, dc.get(), p.n, p.k); break;
  }
  finish_launch();
  return check_close(dc.download(), want, 0, 0, kernel);
}

}  // namespace

int main(int argc, char** argv) {
  return sassim::kernels::run_suite_program(
      argc, argv, {"skinny_gemm_m1", "skinny_gemm_m2", "skinny_gemm_m4", "skinny_gemm_m8"}, run);
}
