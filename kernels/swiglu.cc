#include "kernels/swiglu.h"

#include <cmath>

#include "kernels/values.h"

namespace sassim::kernels::swiglu {

Problem parse_problem(ParamValues values) {
  require_at_most(values, 2, kKernel);
  Problem p;
  p.tokens = param_u32(values, 0, p.tokens, "swiglu TOKENS");
  p.ffn = param_u32(values, 1, p.ffn, "swiglu FFN");
  require_multiple(p.ffn, kChunk, "swiglu FFN");
  return p;
}

void reference(const Problem& p, std::span<const uint16_t> gate_up, std::span<uint16_t> out) {
  for (uint32_t t = 0; t < p.tokens; ++t) {
    for (uint32_t i = 0; i < p.ffn; ++i) {
      const float g = bf16_to_float(gate_up[size_t{t} * 2 * p.ffn + i]);
      const float u = bf16_to_float(gate_up[size_t{t} * 2 * p.ffn + p.ffn + i]);
      const float e = std::exp2(-g * kLog2e);
      const float s = bf16_to_float(float_to_bf16(g * (1.0F / (1.0F + e))));
      out[size_t{t} * p.ffn + i] = float_to_bf16(s * u);
    }
  }
}

}  // namespace sassim::kernels::swiglu
