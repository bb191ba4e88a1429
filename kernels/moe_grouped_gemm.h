// moe_grouped_gemm (sm_80 and later): the experts' GEMM over the permuted rows
// (moe_routing.h): for each row tile of kRowTile rows below `total`, C[tile] = A[tile]
// W[e]^T with e = tile_experts[tile]; tiles from total on are skipped (their CTAs exit).
//   - A [max_rows][K] BF16 (moe_permute's rows, or the SwiGLU of the gate/up output), W
//     [experts][N][K] BF16 (each expert's nn.Linear [out][in]), C [max_rows][N] FP32;
//     the same kernel takes the gate/up projection (N = 2 ffn, K = hidden) and the down
//     projection (N = hidden, K = ffn);
//   - grid (N / 64, max_tiles), 128 threads: a 64 x 64 tile of C per CTA, 4 warps of
//     32 x 32, 32 of K per stage in a 3-stage cp.async ring (XOR-swizzled 64-byte rows),
//     ldmatrix fragments, mma.sync m16n8k16 BF16 with FP32 accumulators (hgemm_mma's
//     structure at half its tile);
//   - the reference sums in K order in FP32: the suite's dyadic inputs make every sum exact,
//     so it matches the kernel (and a GPU) bit for bit; other inputs are checked within the
//     FP32 summation bound (the layer check).
// SASS: LDGSTS.E.BYPASS.128, LDGDEPBAR, DEPBAR.LE, LDSM.16.M88.4, HMMA.16816.F32.BF16.
#pragma once

#include <span>
#include <string_view>

#include "kernels/launch.h"
#include "kernels/moe_routing.h"
#include "kernels/params.h"

namespace sassim::kernels::moe {

inline constexpr std::string_view kGroupedGemmKernel = "moe_grouped_gemm";
inline constexpr uint32_t kGemmTileN = 64;
inline constexpr uint32_t kGemmTileK = 32;
inline constexpr uint32_t kGemmStages = 3;
inline constexpr uint32_t kGemmThreads = 128;
inline constexpr uint32_t kGemmStageBytes = (kRowTile + kGemmTileN) * kGemmTileK * 2;

struct GroupedGemm {
  Routing routing;
  uint32_t n = 256;
  uint32_t k = 256;
};

// Values: TOKENS EXPERTS TOP_K [N [K]]; N a multiple of 64, K of 32.
GroupedGemm parse_grouped_gemm(ParamValues values);

constexpr Launch grouped_gemm_launch(const GroupedGemm& g) {
  const Routing& r = g.routing;
  Launch l{.kernel = kGroupedGemmKernel,
           .grid = {g.n / kGemmTileN, r.max_tiles()},
           .block = {kGemmThreads}};
  l.add(buffer_arg("a", uint64_t{r.max_rows()} * g.k * 2, Access::kRead))
      .add(buffer_arg("w", uint64_t{r.experts} * g.n * g.k * 2, Access::kRead))
      .add(buffer_arg("c", uint64_t{r.max_rows()} * g.n * 4, Access::kWrite))
      .add(buffer_arg("tile_experts", uint64_t{r.max_tiles()} * 4, Access::kRead))
      .add(buffer_arg("total", 4, Access::kRead))
      .add(u32_arg("n", g.n))
      .add(u32_arg("k", g.k));
  return l;
}

// c (FP32, [max_rows][N]): the tiles below `total`, each from its expert's weights (BF16
// bits); the other rows keep what they held. Sums in K order in FP32.
void grouped_gemm_reference(const GroupedGemm& g, std::span<const uint16_t> a,
                            std::span<const uint16_t> w, std::span<const int32_t> tile_experts,
                            int32_t total, std::span<float> c);

}  // namespace sassim::kernels::moe
