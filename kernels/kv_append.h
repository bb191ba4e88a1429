// kv_append: writes the new tokens' keys and values into a paged KV cache, as vLLM's
// reshape_and_cache (csrc/cache_kernels.cu): key and value [tokens][kv_heads][128] BF16,
// slot_mapping [tokens] int64 (slot = page * 16 + offset in the page, from the
// sequences' block tables; negative for a padding token, which is skipped), caches
// [num_pages][kv_heads][16][128] BF16, the layout decode_attention reads (one page of
// one KV head is 4 KiB, contiguous).
//   - one CTA of 128 threads per token; each thread copies 16-byte chunks (8 values)
//     of the token's K and V rows, chunk tid, tid + 128, ... of kv_heads * 16.
// Bit-exact (a copy).
// SASS: LDG.E.64 of the slot, LDG.E.128, STG.E.128.
#pragma once

#include <span>
#include <vector>

#include "kernels/launch.h"
#include "kernels/params.h"

namespace sassim::kernels::kv_append {

inline constexpr std::string_view kKernel = "kv_append";
inline constexpr uint32_t kThreads = 128;
inline constexpr uint32_t kHeadDim = 128;
inline constexpr uint32_t kPageSize = 16;  // tokens per page (vLLM's default block size)
inline constexpr uint32_t kChunk = 8;      // BF16 values per 16-byte copy

struct Problem {
  uint32_t tokens = 32;       // new tokens (one per sequence of a decode batch)
  uint32_t kv_heads = 8;      // Llama 3 8B
  uint32_t num_pages = 1024;  // pages of the cache (16 Mi values, 32 MiB per cache)
};

// Values: [TOKENS [KV_HEADS [NUM_PAGES]]]; TOKENS at most NUM_PAGES * 16.
Problem parse_problem(ParamValues values);

constexpr uint64_t cache_bytes(const Problem& p) {
  return uint64_t{p.num_pages} * p.kv_heads * kPageSize * kHeadDim * 2;
}

constexpr Launch launch(const Problem& p) {
  Launch l{.kernel = kKernel, .grid = {p.tokens}, .block = {kThreads}};
  const uint64_t rows = uint64_t{p.tokens} * p.kv_heads * kHeadDim * 2;
  l.add(buffer_arg("key", rows, Access::kRead))
      .add(buffer_arg("value", rows, Access::kRead))
      .add(buffer_arg("key_cache", cache_bytes(p), Access::kWrite))
      .add(buffer_arg("value_cache", cache_bytes(p), Access::kWrite))
      .add(buffer_arg("slot_mapping", uint64_t{p.tokens} * 8, Access::kRead))
      .add(u32_arg("kv_heads", p.kv_heads));
  return l;
}

// Token t's slot: distinct slots spread over the cache, (t * stride + 5) mod the slot
// count with a stride coprime to it; every 8th token (t % 8 == 7) is padding (-1).
std::vector<int64_t> slot_mapping(const Problem& p);

// The caches after the append (BF16 bits), from caches that started zero.
void reference(const Problem& p, std::span<const uint16_t> rows, std::span<const int64_t> slots,
               std::span<uint16_t> cache);

}  // namespace sassim::kernels::kv_append
