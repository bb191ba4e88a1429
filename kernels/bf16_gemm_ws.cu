// bf16_gemm_ws: see bf16_gemm_ws.h. Device code needs sm_90a (wgmma).
#include <cuda.h>

#include <cstdint>

#include "kernels/bf16_gemm_wgmma.h"
#include "kernels/bf16_gemm_ws.h"
#include "kernels/cuda_host.cuh"
#include "kernels/gemm_ws.cuh"
#include "kernels/values.h"

namespace {

namespace cfg = sassim::kernels::bf16_gemm_ws;
namespace ws = sassim::kernels::gemm_ws;

}  // namespace

extern "C" __global__ void __cluster_dims__(1, ws::kClusterM, 1) __launch_bounds__(ws::kThreads, 1)
    bf16_gemm_ws(const __grid_constant__ CUtensorMap a_map,
                 const __grid_constant__ CUtensorMap bt_map, float* __restrict__ c, uint32_t m,
                 uint32_t n, uint32_t k) {
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
  (void)m;
  ws::gemm<ws::Bf16Mma>(&a_map, &bt_map, c, 1.0F, n, k);
#else
  // Built for an architecture without wgmma: this kernel cannot run there.
  (void)a_map, (void)bt_map, (void)c, (void)m, (void)n, (void)k;
  __trap();
#endif
}

namespace {

bool run(std::string_view, sassim::kernels::ParamValues values) {
  using namespace sassim::kernels;
  const auto problem = cfg::parse_problem(values);
  const Launch config = cfg::launch(problem);
  cudaDeviceProp properties{};
  SASSIM_CUDA_CHECK(cudaGetDeviceProperties(&properties, 0));
  if (properties.major != 9 || properties.minor != 0) {
    std::printf("bf16_gemm_ws: needs an sm_90 GPU (H100/H200), found %s (sm_%d%d)\n",
                properties.name, properties.major, properties.minor);
    return false;
  }
  std::vector<uint16_t> a(size_t{problem.m} * problem.k), bt(size_t{problem.n} * problem.k);
  std::vector<float> want(size_t{problem.m} * problem.n);
  fill_dyadic_bf16(a, 1);
  fill_dyadic_bf16(bt, 2);
  bf16_gemm_wgmma::reference(problem, a, bt, want);
  DeviceBuffer<uint16_t> da(a), dbt(bt);
  DeviceBuffer<float> dc(want.size());
  const CUtensorMap a_map = ws::make_tensor_map(da.get(), problem.m, problem.k, ws::kTileM,
                                                CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2);
  const CUtensorMap bt_map =
      ws::make_tensor_map(dbt.get(), problem.n, problem.k, ws::kTileN / ws::kClusterM,
                          CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2);
  SASSIM_CUDA_CHECK(cudaFuncSetAttribute(::bf16_gemm_ws,
                                         cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         static_cast<int>(config.dynamic_shared_bytes)));
  print_launch(config);
  ::bf16_gemm_ws<<<to_dim3(config.grid), to_dim3(config.block), config.dynamic_shared_bytes>>>(
      a_map, bt_map, dc.get(), problem.m, problem.n, problem.k);
  finish_launch();
  return check_close(dc.download(), want, 0, 0, "bf16_gemm_ws");
}

}  // namespace

int main(int argc, char** argv) {
  return sassim::kernels::run_suite_program(argc, argv, {"bf16_gemm_ws"}, run);
}
