// gemm_epilogue: see gemm_epilogue.h.
#include <cstdint>

#include "kernels/bf16_vec.cuh"
#include "kernels/cuda_host.cuh"
#include "kernels/gemm_epilogue.h"
#include "kernels/values.h"

namespace {

namespace cfg = sassim::kernels::gemm_epilogue;
using sassim::kernels::bf16x8_to_float;
using sassim::kernels::float_to_bf16x8;

template <bool kResidual>
__device__ __forceinline__ void epilogue(const float4* __restrict__ c,
                                         const uint4* __restrict__ residual,
                                         uint4* __restrict__ out, uint32_t cols, uint32_t ldc) {
  const uint32_t chunks = cols / cfg::kChunk;
  const uint32_t j = blockIdx.x * cfg::kThreads + threadIdx.x;
  if (j >= chunks) return;
  const size_t row = blockIdx.y;
  const float4* in = c + row * (ldc / 4) + 2 * j;
  const float4 a = in[0], b = in[1];
  float f[8] = {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w};
  if constexpr (kResidual) {
    float r[8];
    bf16x8_to_float(residual[row * chunks + j], r);
#pragma unroll
    for (int i = 0; i < 8; ++i) f[i] = __fadd_rn(f[i], r[i]);
  }
  out[row * chunks + j] = float_to_bf16x8(f);
}

}  // namespace

extern "C" __global__ void __launch_bounds__(256)
    cast_bf16(const float4* __restrict__ c, uint4* __restrict__ out, uint32_t cols, uint32_t ldc) {
  epilogue<false>(c, nullptr, out, cols, ldc);
}

extern "C" __global__ void __launch_bounds__(256)
    residual_add(const float4* __restrict__ c, const uint4* __restrict__ residual,
                 uint4* __restrict__ out, uint32_t cols, uint32_t ldc) {
  epilogue<true>(c, residual, out, cols, ldc);
}

namespace {

bool run(std::string_view kernel, sassim::kernels::ParamValues values) {
  using namespace sassim::kernels;
  const auto problem = cfg::parse_problem(values);
  const Launch config = cfg::launch(kernel, problem);
  const bool residual = kernel == cfg::kResidualKernel;
  std::vector<float> hc(cfg::c_floats(problem));
  fill_dyadic(hc, 1);
  std::vector<uint16_t> hr(residual ? size_t{problem.rows} * problem.cols : 0);
  fill_dyadic_bf16(hr, 2);
  std::vector<uint16_t> want(size_t{problem.rows} * problem.cols);
  cfg::reference(problem, hc, hr, want);
  DeviceBuffer<float> dc(hc);
  DeviceBuffer<uint16_t> dr(residual ? hr : std::vector<uint16_t>(1)), dout(want.size());
  print_launch(config);
  const auto c = reinterpret_cast<const float4*>(dc.get());
  const auto out = reinterpret_cast<uint4*>(dout.get());
  if (residual) {
    ::residual_add<<<to_dim3(config.grid), to_dim3(config.block)>>>(
        c, reinterpret_cast<const uint4*>(dr.get()), out, problem.cols, problem.ldc);
  } else {
    ::cast_bf16<<<to_dim3(config.grid), to_dim3(config.block)>>>(c, out, problem.cols, problem.ldc);
  }
  finish_launch();
  return check_close(bf16_to_floats(dout.download()), bf16_to_floats(want), 0, 0, kernel);
}

}  // namespace

int main(int argc, char** argv) {
  return sassim::kernels::run_suite_program(argc, argv, {"cast_bf16", "residual_add"}, run);
}
