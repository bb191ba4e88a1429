// fp8_gemm_wgmma: see fp8_gemm_wgmma.h. Device code needs sm_90a (wgmma).
#include <cuda.h>

#include <cstdint>

#include "kernels/cuda_host.cuh"
#include "kernels/e4m3.h"
#include "kernels/fp8_gemm_wgmma.h"
#include "kernels/gemm_ws.cuh"
#include "kernels/tma_host.cuh"
#include "kernels/values.h"

namespace {

namespace cfg = sassim::kernels::fp8_gemm_wgmma;
namespace ws = sassim::kernels::gemm_ws;

}  // namespace

extern "C" __global__ void __cluster_dims__(1, ws::kClusterM, 1) __launch_bounds__(ws::kThreads, 1)
    fp8_gemm_wgmma(const __grid_constant__ CUtensorMap a_map,
                   const __grid_constant__ CUtensorMap bt_map, float* __restrict__ c, float scale_a,
                   float scale_b, uint32_t m, uint32_t n, uint32_t k) {
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
  (void)m;
  ws::gemm<ws::Fp8Mma>(&a_map, &bt_map, c, scale_a * scale_b, n, k);
#else
  // Built for an architecture without wgmma: this kernel cannot run there.
  (void)a_map, (void)bt_map, (void)c, (void)scale_a, (void)scale_b, (void)m, (void)n, (void)k;
  __trap();
#endif
}

namespace {

bool run(std::string_view, sassim::kernels::ParamValues values) {
  using namespace sassim::kernels;
  const auto problem = cfg::parse_problem(values);
  if (!has_sm90("fp8_gemm_wgmma")) return false;
  std::vector<uint8_t> a(size_t{problem.m} * problem.k), bt(size_t{problem.n} * problem.k);
  std::vector<float> want(size_t{problem.m} * problem.n);
  fill_dyadic_e4m3(a, 1);
  fill_dyadic_e4m3(bt, 2);
  cfg::reference(problem, a, bt, cfg::kScaleA, cfg::kScaleB, want);
  return run_tma_gemm("fp8_gemm_wgmma", ::fp8_gemm_wgmma, cfg::launch(problem), problem,
                      CU_TENSOR_MAP_DATA_TYPE_UINT8, ws::kTileM, ws::kTileN / ws::kClusterM, a, bt,
                      want, cfg::kScaleA, cfg::kScaleB, problem.m, problem.n, problem.k);
}

}  // namespace

int main(int argc, char** argv) {
  return sassim::kernels::run_suite_program(argc, argv, {"fp8_gemm_wgmma"}, run);
}
