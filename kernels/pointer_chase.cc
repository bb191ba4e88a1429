#include "kernels/pointer_chase.h"

#include <stdexcept>

namespace sassim::kernels::pointer_chase {

Problem parse_problem(std::string_view kernel, ParamValues values) {
  const bool shared = kernel == kSharedKernel;
  require_at_most(values, shared ? 3 : 4, kernel);
  Problem p;
  p.footprint_bytes = param_u32(values, 0, p.footprint_bytes, "FOOTPRINT_BYTES");
  p.stride_bytes = param_u32(values, 1, p.stride_bytes, "STRIDE_BYTES");
  p.steps = param_u32(values, 2, p.steps, "STEPS");
  p.warmup_steps = shared ? 0 : param_count(values, 3, p.warmup_steps, "WARMUP_STEPS");
  require_multiple(p.stride_bytes, 4, "STRIDE_BYTES");
  require_multiple(p.footprint_bytes, p.stride_bytes, "FOOTPRINT_BYTES");
  if (shared && p.footprint_bytes > kMaxSharedFootprintBytes) {
    throw std::invalid_argument("chase_shared: FOOTPRINT_BYTES must be at most 49152 (48 KiB)");
  }
  return p;
}

std::vector<uint32_t> build_chain(const Problem& p) {
  const uint32_t elements = p.elements();
  const uint32_t step = p.stride_bytes / 4;
  std::vector<uint32_t> chain(elements, 0);
  for (uint32_t i = 0; i < elements; i += step) chain[i] = (i + step) % elements;
  return chain;
}

uint32_t final_index(std::span<const uint32_t> chain, uint64_t steps) {
  uint32_t index = 0;
  for (uint64_t s = 0; s < steps; ++s) index = chain[index];
  return index;
}

}  // namespace sassim::kernels::pointer_chase
