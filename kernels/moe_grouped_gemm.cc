#include "kernels/moe_grouped_gemm.h"

#include <string>
#include <vector>

#include "kernels/values.h"

namespace sassim::kernels::moe {

GroupedGemm parse_grouped_gemm(ParamValues values) {
  const std::string name(kGroupedGemmKernel);
  GroupedGemm g;
  g.routing = parse_routing(values, kGroupedGemmKernel, 2);
  g.n = param_u32(values, 3, g.n, name + " N");
  g.k = param_u32(values, 4, g.k, name + " K");
  require_multiple(g.n, kGemmTileN, name + " N");
  require_multiple(g.k, kGemmTileK, name + " K");
  return g;
}

void grouped_gemm_reference(const GroupedGemm& g, std::span<const uint16_t> a,
                            std::span<const uint16_t> w, std::span<const int32_t> tile_experts,
                            int32_t total, std::span<float> c) {
  const Routing& r = g.routing;
  std::vector<float> row(g.k);
  for (uint32_t tile = 0; tile < r.max_tiles(); ++tile) {
    if (static_cast<int64_t>(tile) * kRowTile >= total || tile_experts[tile] < 0) continue;
    const uint16_t* we = &w[static_cast<size_t>(tile_experts[tile]) * g.n * g.k];
    for (uint32_t i = tile * kRowTile; i < (tile + 1) * kRowTile; ++i) {
      for (uint32_t x = 0; x < g.k; ++x) row[x] = bf16_to_float(a[size_t{i} * g.k + x]);
      for (uint32_t j = 0; j < g.n; ++j) {
        const uint16_t* wr = &we[size_t{j} * g.k];
        float sum = 0;
        for (uint32_t x = 0; x < g.k; ++x) sum += row[x] * bf16_to_float(wr[x]);
        c[size_t{i} * g.n + j] = sum;
      }
    }
  }
}

}  // namespace sassim::kernels::moe
