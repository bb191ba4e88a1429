#include "kernels/rope.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "kernels/values.h"

namespace sassim::kernels::rope {

Problem parse_problem(ParamValues values) {
  require_at_most(values, 4, kKernel);
  Problem p;
  p.tokens = param_u32(values, 0, p.tokens, "rope TOKENS");
  p.heads = param_u32(values, 1, p.heads, "rope HEADS");
  p.kv_heads = param_u32(values, 2, p.kv_heads, "rope KV_HEADS");
  p.max_position = param_u32(values, 3, p.max_position, "rope MAX_POSITION");
  if (p.heads % p.kv_heads != 0) {
    throw std::invalid_argument("rope HEADS (" + std::to_string(p.heads) +
                                ") must be a multiple of KV_HEADS (" + std::to_string(p.kv_heads) +
                                ")");
  }
  return p;
}

std::vector<int32_t> positions(const Problem& p) {
  std::vector<int32_t> pos(p.tokens);
  for (uint32_t t = 0; t < p.tokens; ++t)
    pos[t] = static_cast<int32_t>((uint64_t{t} * 977 + 13) % p.max_position);
  return pos;
}

std::vector<float> cos_sin_table(const Problem& p) {
  std::vector<float> table(size_t{p.max_position} * kHeadDim);
  for (uint32_t pos = 0; pos < p.max_position; ++pos) {
    for (uint32_t i = 0; i < kHalf; ++i) {
      const double angle = pos * std::pow(kTheta, -2.0 * i / kHeadDim);
      table[size_t{pos} * kHeadDim + i] = static_cast<float>(std::cos(angle));
      table[size_t{pos} * kHeadDim + kHalf + i] = static_cast<float>(std::sin(angle));
    }
  }
  return table;
}

void reference(const Problem& p, std::span<const int32_t> positions, std::span<const float> cos_sin,
               uint32_t heads_of_x, std::span<uint16_t> x) {
  for (uint32_t t = 0; t < p.tokens; ++t) {
    const float* row = cos_sin.data() + size_t(positions[t]) * kHeadDim;
    for (uint32_t h = 0; h < heads_of_x; ++h) {
      uint16_t* head = x.data() + (size_t{t} * heads_of_x + h) * kHeadDim;
      for (uint32_t i = 0; i < kHalf; ++i) {
        const float lo = bf16_to_float(head[i]);
        const float hi = bf16_to_float(head[kHalf + i]);
        const float c = row[i];
        const float s = row[kHalf + i];
        head[i] = float_to_bf16(std::fma(lo, c, -(hi * s)));
        head[kHalf + i] = float_to_bf16(std::fma(hi, c, lo * s));
      }
    }
  }
}

}  // namespace sassim::kernels::rope
