// bf16_gemm_ws: see bf16_gemm_ws.h. Device code needs sm_90a (wgmma).
#include <cuda.h>

#include <cstdint>

#include "kernels/bf16_gemm_wgmma.h"
#include "kernels/bf16_gemm_ws.h"
#include "kernels/cuda_host.cuh"
#include "kernels/gemm_ws.cuh"
#include "kernels/tma_host.cuh"
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
  if (!has_sm90("bf16_gemm_ws")) return false;
  std::vector<uint16_t> a(size_t{problem.m} * problem.k), bt(size_t{problem.n} * problem.k);
  std::vector<float> want(size_t{problem.m} * problem.n);
  fill_dyadic_bf16(a, 1);
  fill_dyadic_bf16(bt, 2);
  bf16_gemm_wgmma::reference(problem, a, bt, want);
  return run_tma_gemm("bf16_gemm_ws", ::bf16_gemm_ws, cfg::launch(problem), problem,
                      CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, ws::kTileM, ws::kTileN / ws::kClusterM, a,
                      bt, want, problem.m, problem.n, problem.k);
}

}  // namespace

int main(int argc, char** argv) {
  return sassim::kernels::run_suite_program(argc, argv, {"bf16_gemm_ws"}, run);
}
