// STREAM-style bandwidth kernels, one element per thread:
//   stream_copy:  c[i] = a[i]
//   stream_triad: a[i] = b[i] + scalar * c[i] (one fused multiply-add)
// The default size (2^23 floats, 32 MiB per array) keeps the arrays out of the L2 of
// an A100 (40 MB) together, so the kernels stream from DRAM.
#pragma once

#include <span>

#include "kernels/launch.h"
#include "kernels/params.h"

namespace sassim::kernels::stream {

inline constexpr std::string_view kCopyKernel = "stream_copy";
inline constexpr std::string_view kTriadKernel = "stream_triad";
inline constexpr uint32_t kBlockThreads = 256;
inline constexpr float kScalar = 3.0F;

struct Problem {
  uint32_t n = 1U << 23;  // elements per array
};

// Values: [N].
Problem parse_problem(ParamValues values);

constexpr Launch copy_launch(const Problem& p) {
  Launch l{.kernel = kCopyKernel, .grid = {ceil_div(p.n, kBlockThreads)}, .block = {kBlockThreads}};
  const uint64_t bytes = uint64_t{p.n} * sizeof(float);
  l.add(buffer_arg("a", bytes, Access::kRead))
      .add(buffer_arg("c", bytes, Access::kWrite))
      .add(u32_arg("n", p.n));
  return l;
}

constexpr Launch triad_launch(const Problem& p) {
  Launch l{
      .kernel = kTriadKernel, .grid = {ceil_div(p.n, kBlockThreads)}, .block = {kBlockThreads}};
  const uint64_t bytes = uint64_t{p.n} * sizeof(float);
  l.add(buffer_arg("a", bytes, Access::kWrite))
      .add(buffer_arg("b", bytes, Access::kRead))
      .add(buffer_arg("c", bytes, Access::kRead))
      .add(f32_arg("scalar", kScalar))
      .add(u32_arg("n", p.n));
  return l;
}

void copy_reference(std::span<const float> a, std::span<float> c);
// a = fma(scalar, c, b), element by element.
void triad_reference(std::span<float> a, std::span<const float> b, std::span<const float> c,
                     float scalar);

}  // namespace sassim::kernels::stream
