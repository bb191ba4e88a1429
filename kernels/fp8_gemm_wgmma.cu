// fp8_gemm_wgmma: see fp8_gemm_wgmma.h. Device code needs sm_90a (wgmma).
#include <cuda.h>

#include <cstdint>

#include "kernels/cuda_host.cuh"
#include "kernels/e4m3.h"
#include "kernels/fp8_gemm_wgmma.h"
#include "kernels/hopper_sm90a.cuh"
#include "kernels/values.h"

namespace {

namespace cfg = sassim::kernels::fp8_gemm_wgmma;
using namespace sassim::kernels::sm90a;

constexpr uint32_t kTileABytes = cfg::kTileM * cfg::kTileK;
constexpr uint32_t kConsumerRows = cfg::kTileM / cfg::kConsumers;  // 64: one wgmma's M

}  // namespace

extern "C" __global__ void __cluster_dims__(1, cfg::kClusterM, 1)
    __launch_bounds__(cfg::kThreads, 1)
        fp8_gemm_wgmma(const __grid_constant__ CUtensorMap a_map,
                       const __grid_constant__ CUtensorMap bt_map, float* __restrict__ c,
                       float scale_a, float scale_b, uint32_t m, uint32_t n, uint32_t k) {
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
  extern __shared__ unsigned char shared_raw[];
  __shared__ __align__(8) uint64_t full[cfg::kStages];   // the stage's bytes have landed
  __shared__ __align__(8) uint64_t empty[cfg::kStages];  // every consumer warp is done with it
  const uint32_t tiles = (shared_address(shared_raw) + 1023) & ~1023U;  // stage s: A, then Bt
  const uint32_t warpgroup = threadIdx.x / 128;
  const uint32_t warp = (threadIdx.x / 32) % 4;  // within its warpgroup
  const uint32_t lane = threadIdx.x % 32;
  const uint32_t rank = cluster_rank();  // the CTAs of a cluster share the tile's B
  // The tile of this CTA: clusters (pairs of 128-row tiles sharing a 256-column tile) in
  // launch order walk a group of kGroupPairs pairs down, then the next column, so that
  // the CTAs resident together read a few MiB of A and B rather than all of B.
  const uint32_t pairs = gridDim.y / cfg::kClusterM;
  const uint32_t cluster = blockIdx.x + gridDim.x * (blockIdx.y / cfg::kClusterM);
  const uint32_t group = cluster / (cfg::kGroupPairs * gridDim.x);
  const uint32_t in_group = cluster % (cfg::kGroupPairs * gridDim.x);
  const uint32_t group_pairs = min(cfg::kGroupPairs, pairs - group * cfg::kGroupPairs);
  const uint32_t pair = group * cfg::kGroupPairs + in_group % group_pairs;
  const int32_t row0 = static_cast<int32_t>((pair * cfg::kClusterM + rank) * cfg::kTileM);
  const int32_t col0 = static_cast<int32_t>(in_group / group_pairs * cfg::kTileN);
  const uint32_t k_tiles = k / cfg::kTileK;
  (void)m;

  if (threadIdx.x == 0) {
    for (uint32_t s = 0; s < cfg::kStages; ++s) {
      mbarrier_init(shared_address(&full[s]), 1);
      // The computing warps of every CTA of the cluster: each reads the B rows all of
      // their loads bring.
      mbarrier_init(shared_address(&empty[s]), cfg::kClusterM * cfg::kConsumers * 4);
    }
    fence_barrier_init();
  }
  cluster_sync();  // every CTA's mbarriers are set up before any copy or arrive reaches them

  if (warpgroup == 0) {
    // The producer: one thread fills the ring, each stage once the consumers of every
    // CTA of the cluster freed it: its A rows, and its share of B rows for all the CTAs.
    if (threadIdx.x == 0) {
      const uint32_t b_share = cfg::kTileN / cfg::kClusterM;  // B rows this CTA loads
      for (uint32_t kt = 0; kt < k_tiles; ++kt) {
        const uint32_t stage = kt % cfg::kStages;
        if (kt >= cfg::kStages) {
          mbarrier_wait(shared_address(&empty[stage]), (kt / cfg::kStages - 1) % 2);
        }
        const uint32_t bar = shared_address(&full[stage]);
        const uint32_t dst = tiles + stage * cfg::kStageBytes;
        const auto k0 = static_cast<int32_t>(kt * cfg::kTileK);
        mbarrier_arrive_expect_tx(bar, cfg::kStageBytes);
        tma_load_2d(dst, &a_map, bar, k0, row0);
        tma_load_2d_multicast(dst + kTileABytes + rank * b_share * cfg::kTileK, &bt_map, bar, k0,
                              col0 + static_cast<int32_t>(rank * b_share),
                              static_cast<uint16_t>((1U << cfg::kClusterM) - 1));
      }
    }
    cluster_sync();  // no CTA leaves while another may still arrive on its mbarriers
    return;
  }

  // A consumer: 64 rows of the tile by all 256 columns.
  const uint32_t consumer = warpgroup - 1;
  float acc[128] = {};
  for (uint32_t kt = 0; kt < k_tiles; ++kt) {
    const uint32_t stage = kt % cfg::kStages;
    mbarrier_wait(shared_address(&full[stage]), (kt / cfg::kStages) % 2);
    const uint32_t a_tile =
        tiles + stage * cfg::kStageBytes + consumer * kConsumerRows * cfg::kTileK;
    const uint32_t b_tile = tiles + stage * cfg::kStageBytes + kTileABytes;
    wgmma_fence();
#pragma unroll
    for (uint32_t kk = 0; kk < cfg::kTileK / 32; ++kk) {
      // 32 E4M3 of K are 32 bytes along the (swizzled) 128-byte row.
      wgmma_m64n256k32_e4m3(acc, smem_descriptor_sw128(a_tile + kk * 32),
                            smem_descriptor_sw128(b_tile + kk * 32));
    }
    wgmma_commit();
    wgmma_wait<1>();  // this warp's group of tile kt - 1 has retired: its stage is free
    if (kt > 0 && lane == 0) {
      const uint32_t freed = shared_address(&empty[(kt - 1) % cfg::kStages]);
      for (uint32_t r = 0; r < cfg::kClusterM; ++r)
        mbarrier_arrive_cluster(cluster_address(freed, r));
    }
  }
  wgmma_wait<0>();
  const float scale = scale_a * scale_b;

  // Accumulator i of a thread: row 16 warp + lane / 4 (+ 8 when i % 4 >= 2), column
  // 8 (i / 4) + 2 (lane % 4) + i % 2.
  const uint32_t row =
      static_cast<uint32_t>(row0) + consumer * kConsumerRows + warp * 16 + lane / 4;
#pragma unroll
  for (uint32_t j = 0; j < cfg::kTileN / 8; ++j) {
    const uint32_t col = static_cast<uint32_t>(col0) + j * 8 + (lane % 4) * 2;
    *reinterpret_cast<float2*>(&c[size_t{row} * n + col]) =
        make_float2(acc[4 * j] * scale, acc[4 * j + 1] * scale);
    *reinterpret_cast<float2*>(&c[size_t{row + 8} * n + col]) =
        make_float2(acc[4 * j + 2] * scale, acc[4 * j + 3] * scale);
  }
  cluster_sync();
#else
  // Built for an architecture without wgmma: this kernel cannot run there.
  (void)a_map, (void)bt_map, (void)c, (void)scale_a, (void)scale_b, (void)m, (void)n, (void)k;
  __trap();
#endif
}

namespace {

// A K-major E4M3 matrix of `rows` x `cols` (bytes) as a TMA map with boxes of 128 bytes
// (one swizzle row of K) by `box_rows` rows.
CUtensorMap make_tensor_map(const void* base, uint64_t rows, uint64_t cols, uint32_t box_rows) {
  using EncodeTiled = decltype(&cuTensorMapEncodeTiled);
  void* entry = nullptr;
  cudaDriverEntryPointQueryResult found{};
  SASSIM_CUDA_CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &entry, 12000,
                                                     cudaEnableDefault, &found));
  if (entry == nullptr || found != cudaDriverEntryPointSuccess) {
    throw std::runtime_error("the driver has no cuTensorMapEncodeTiled");
  }
  CUtensorMap map{};
  const cuuint64_t dims[2] = {cols, rows};
  const cuuint64_t strides[1] = {cols};
  const cuuint32_t box[2] = {cfg::kTileK, box_rows};
  const cuuint32_t element_strides[2] = {1, 1};
  const CUresult result = reinterpret_cast<EncodeTiled>(entry)(
      &map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, const_cast<void*>(base), dims, strides, box,
      element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
      CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (result != CUDA_SUCCESS)
    throw std::runtime_error("cuTensorMapEncodeTiled failed: " + std::to_string(result));
  return map;
}

bool run(std::string_view, sassim::kernels::ParamValues values) {
  using namespace sassim::kernels;
  const auto problem = cfg::parse_problem(values);
  const Launch config = cfg::launch(problem);
  cudaDeviceProp properties{};
  SASSIM_CUDA_CHECK(cudaGetDeviceProperties(&properties, 0));
  if (properties.major != 9 || properties.minor != 0) {
    std::printf("fp8_gemm_wgmma: needs an sm_90 GPU (H100/H200), found %s (sm_%d%d)\n",
                properties.name, properties.major, properties.minor);
    return false;
  }
  std::vector<uint8_t> a(size_t{problem.m} * problem.k), bt(size_t{problem.n} * problem.k);
  std::vector<float> want(size_t{problem.m} * problem.n);
  fill_dyadic_e4m3(a, 1);
  fill_dyadic_e4m3(bt, 2);
  cfg::reference(problem, a, bt, cfg::kScaleA, cfg::kScaleB, want);
  DeviceBuffer<uint8_t> da(a), dbt(bt);
  DeviceBuffer<float> dc(want.size());
  const CUtensorMap a_map = make_tensor_map(da.get(), problem.m, problem.k, cfg::kTileM);
  const CUtensorMap bt_map =
      make_tensor_map(dbt.get(), problem.n, problem.k, cfg::kTileN / cfg::kClusterM);
  SASSIM_CUDA_CHECK(cudaFuncSetAttribute(::fp8_gemm_wgmma,
                                         cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         static_cast<int>(config.dynamic_shared_bytes)));
  print_launch(config);
  ::fp8_gemm_wgmma<<<to_dim3(config.grid), to_dim3(config.block), config.dynamic_shared_bytes>>>(
      a_map, bt_map, dc.get(), cfg::kScaleA, cfg::kScaleB, problem.m, problem.n, problem.k);
  finish_launch();
  return check_close(dc.download(), want, 0, 0, "fp8_gemm_wgmma");
}

}  // namespace

int main(int argc, char** argv) {
  return sassim::kernels::run_suite_program(argc, argv, {"fp8_gemm_wgmma"}, run);
}
