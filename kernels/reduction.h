// reduce_sum: each CTA sums a grid-strided share of the input and writes one partial
// sum: every thread accumulates its elements in order, each warp reduces with
// __shfl_down_sync (offsets 16, 8, 4, 2, 1), warp sums meet in shared memory, and warp 0
// reduces them the same way. The host adds the partials. The reference follows the
// same order of additions, so its partials equal the kernel's bit for bit.
#pragma once

#include <span>
#include <vector>

#include "kernels/launch.h"
#include "kernels/params.h"

namespace sassim::kernels::reduction {

inline constexpr std::string_view kKernel = "reduce_sum";
inline constexpr uint32_t kBlockThreads = 256;
inline constexpr uint32_t kWarps = kBlockThreads / 32;

struct Problem {
  uint32_t n = 1U << 22;  // input elements
  uint32_t ctas = 264;    // CTAs, one partial sum each (2 per SM of an H100 SXM)
};

// Values: [N [CTAS]].
Problem parse_problem(ParamValues values);

constexpr Launch launch(const Problem& p) {
  Launch l{.kernel = kKernel, .grid = {p.ctas}, .block = {kBlockThreads}};
  l.add(buffer_arg("input", uint64_t{p.n} * sizeof(float), Access::kRead))
      .add(buffer_arg("partials", uint64_t{p.ctas} * sizeof(float), Access::kWrite))
      .add(u32_arg("n", p.n));
  return l;
}

// The kernel's partial sums, one per CTA, in its order of additions.
std::vector<float> reference_partials(const Problem& p, std::span<const float> input);

// Sum of the whole input in double precision (for tolerance checks).
double exact_sum(std::span<const float> input);

}  // namespace sassim::kernels::reduction
