// vectoradd: c[i] = a[i] + b[i], one element per thread.
#pragma once

#include <span>

#include "kernels/launch.h"
#include "kernels/params.h"

namespace sassim::kernels::vector_add {

inline constexpr std::string_view kKernel = "vectoradd";
inline constexpr uint32_t kBlockThreads = 256;

struct Problem {
  uint32_t n = 1U << 20;  // elements
};

// Values: [N].
Problem parse_problem(ParamValues values);

constexpr Launch launch(const Problem& p) {
  Launch l{.kernel = kKernel, .grid = {ceil_div(p.n, kBlockThreads)}, .block = {kBlockThreads}};
  const uint64_t bytes = uint64_t{p.n} * sizeof(float);
  l.add(buffer_arg("a", bytes, Access::kRead))
      .add(buffer_arg("b", bytes, Access::kRead))
      .add(buffer_arg("c", bytes, Access::kWrite))
      .add(u32_arg("n", p.n));
  return l;
}

void reference(std::span<const float> a, std::span<const float> b, std::span<float> c);

}  // namespace sassim::kernels::vector_add
