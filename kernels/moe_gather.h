// Moving token rows into and out of the experts' permuted order (moe_routing.h):
//   - moe_permute: rows[r] = x[sorted_ids[r] / top_k] for the rows r below total (BF16,
//     [max_rows][hidden]); a padding row (sorted_ids[r] = pairs) is written with zeros, and
//     rows from total on are left as they are (moe_grouped_gemm skips their tiles). Grid
//     (max_rows), 128 threads, 16-byte loads and stores: a copy, bit-exact.
//   - moe_unpermute: out[t] = bf16(residual[t] + sum over slots s of w[t][s] c[row(t, s)])
//     from the experts' FP32 outputs c [rows][hidden] in permuted order, pair_rows and the
//     router's weights; the sum is one FMA per slot in slot order, then the residual added in
//     FP32 and one rounding (the reference takes the same steps: bit-exact). Grid (tokens),
//     128 threads, 8 values each per step.
// SASS: LDG.E.128, STG.E.128, FFMA, FADD, F2FP.BF16.
#pragma once

#include <span>
#include <string_view>

#include "kernels/launch.h"
#include "kernels/moe_routing.h"
#include "kernels/params.h"

namespace sassim::kernels::moe {

inline constexpr std::string_view kPermuteKernel = "moe_permute";
inline constexpr std::string_view kUnpermuteKernel = "moe_unpermute";
inline constexpr uint32_t kGatherThreads = 128;
inline constexpr uint32_t kGatherChunk = 8;  // BF16 values per 16-byte access

struct Gather {
  Routing routing;
  uint32_t hidden = 4096;
};

// Values: TOKENS EXPERTS TOP_K [HIDDEN]; HIDDEN a multiple of 8.
Gather parse_gather(ParamValues values, std::string_view kernel);

constexpr Launch permute_launch(const Gather& g) {
  const Routing& r = g.routing;
  Launch l{.kernel = kPermuteKernel, .grid = {r.max_rows()}, .block = {kGatherThreads}};
  l.add(buffer_arg("x", uint64_t{r.tokens} * g.hidden * 2, Access::kRead))
      .add(buffer_arg("sorted_ids", uint64_t{r.max_rows()} * 4, Access::kRead))
      .add(buffer_arg("total", 4, Access::kRead))
      .add(buffer_arg("rows", uint64_t{r.max_rows()} * g.hidden * 2, Access::kWrite))
      .add(u32_arg("hidden", g.hidden))
      .add(u32_arg("top_k", r.top_k))
      .add(u32_arg("pairs", r.pairs()));
  return l;
}

constexpr Launch unpermute_launch(const Gather& g) {
  const Routing& r = g.routing;
  Launch l{.kernel = kUnpermuteKernel, .grid = {r.tokens}, .block = {kGatherThreads}};
  l.add(buffer_arg("c", uint64_t{r.max_rows()} * g.hidden * 4, Access::kRead))
      .add(buffer_arg("pair_rows", uint64_t{r.pairs()} * 4, Access::kRead))
      .add(buffer_arg("weights", uint64_t{r.pairs()} * 4, Access::kRead))
      .add(buffer_arg("residual", uint64_t{r.tokens} * g.hidden * 2, Access::kRead))
      .add(buffer_arg("out", uint64_t{r.tokens} * g.hidden * 2, Access::kWrite))
      .add(u32_arg("hidden", g.hidden))
      .add(u32_arg("top_k", r.top_k));
  return l;
}

// rows (BF16 bits, [max_rows][hidden]) as moe_permute leaves them; rows at and past
// `total` keep what they held.
void permute_reference(const Gather& g, std::span<const uint16_t> x,
                       std::span<const int32_t> sorted_ids, int32_t total,
                       std::span<uint16_t> rows);

// out (BF16 bits, [tokens][hidden]).
void unpermute_reference(const Gather& g, std::span<const float> c,
                         std::span<const int32_t> pair_rows, std::span<const float> weights,
                         std::span<const uint16_t> residual, std::span<uint16_t> out);

}  // namespace sassim::kernels::moe
