#include "kernels/kv_append.h"

#include <numeric>
#include <stdexcept>
#include <string>

namespace sassim::kernels::kv_append {

Problem parse_problem(ParamValues values) {
  require_at_most(values, 3, kKernel);
  Problem p;
  p.tokens = param_u32(values, 0, p.tokens, "kv_append TOKENS");
  p.kv_heads = param_u32(values, 1, p.kv_heads, "kv_append KV_HEADS");
  p.num_pages = param_u32(values, 2, p.num_pages, "kv_append NUM_PAGES");
  if (uint64_t{p.tokens} > uint64_t{p.num_pages} * kPageSize) {
    throw std::invalid_argument("kv_append TOKENS (" + std::to_string(p.tokens) +
                                ") must be at most NUM_PAGES * 16 (" +
                                std::to_string(uint64_t{p.num_pages} * kPageSize) + ")");
  }
  return p;
}

std::vector<int64_t> slot_mapping(const Problem& p) {
  const uint64_t slots = uint64_t{p.num_pages} * kPageSize;
  uint64_t stride = 4099;  // a prime; the first number from it coprime to the slot count
  while (std::gcd(stride, slots) != 1) ++stride;
  std::vector<int64_t> mapping(p.tokens);
  for (uint32_t t = 0; t < p.tokens; ++t) {
    mapping[t] = t % 8 == 7 ? -1 : static_cast<int64_t>((t * stride + 5) % slots);
  }
  return mapping;
}

void reference(const Problem& p, std::span<const uint16_t> rows, std::span<const int64_t> slots,
               std::span<uint16_t> cache) {
  for (uint32_t t = 0; t < p.tokens; ++t) {
    if (slots[t] < 0) continue;
    const uint64_t page = static_cast<uint64_t>(slots[t]) / kPageSize;
    const uint64_t offset = static_cast<uint64_t>(slots[t]) % kPageSize;
    for (uint32_t h = 0; h < p.kv_heads; ++h) {
      for (uint32_t d = 0; d < kHeadDim; ++d) {
        cache[((page * p.kv_heads + h) * kPageSize + offset) * kHeadDim + d] =
            rows[(uint64_t{t} * p.kv_heads + h) * kHeadDim + d];
      }
    }
  }
}

}  // namespace sassim::kernels::kv_append
