// saxpy: y[i] = alpha * x[i] + y[i] (one fused multiply-add), one element per thread.
#pragma once

#include <span>

#include "kernels/launch.h"
#include "kernels/params.h"

namespace sassim::kernels::saxpy {

inline constexpr std::string_view kKernel = "saxpy";
inline constexpr uint32_t kBlockThreads = 256;
inline constexpr float kAlpha = 1.5F;

struct Problem {
  uint32_t n = 1U << 20;  // elements
};

// Values: [N].
Problem parse_problem(ParamValues values);

constexpr Launch launch(const Problem& p) {
  Launch l{.kernel = kKernel, .grid = {ceil_div(p.n, kBlockThreads)}, .block = {kBlockThreads}};
  const uint64_t bytes = uint64_t{p.n} * sizeof(float);
  l.add(buffer_arg("x", bytes, Access::kRead))
      .add(buffer_arg("y", bytes, Access::kReadWrite))
      .add(f32_arg("alpha", kAlpha))
      .add(u32_arg("n", p.n));
  return l;
}

// y = fma(alpha, x, y), element by element.
void reference(std::span<const float> x, std::span<float> y, float alpha);

}  // namespace sassim::kernels::saxpy
