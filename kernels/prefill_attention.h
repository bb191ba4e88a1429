// prefill_attention (sm_80 and later): the attention of a prefill, FlashAttention-2
// (Dao, "FlashAttention-2: Faster Attention with Better Parallelism and Work
// Partitioning", 2023) with a causal mask and grouped-query attention, head dimension
// 128, BF16 Q, K, V and output, FP32 accumulation.
//   - q, o [batch * seq_len][heads][128] and k, v [batch * seq_len][kv_heads][128]:
//     the token-major layout the QKV projection and RoPE leave (each sequence's
//     seq_len tokens in order); query head h reads KV head h / (heads / kv_heads);
//   - grid (seq_len / 64, heads, batch), 128 threads, 80 KiB of dynamic shared memory.
//     A CTA takes 64 query rows of one head (16 per warp) and walks the keys 64 at a
//     time: with the causal mask only the blocks up to its own, the last one masked
//     (key j > query i gets -inf). CTAs are numbered from the last query block down, so
//     the longest ones start first. Q, K and V blocks are 64 rows of 256 bytes in shared
//     memory with 16-byte chunks XOR-swizzled (chunk ^ row % 8), K and V double-buffered
//     by cp.async;
//   - S = Q K^T with mma.sync.m16n8k16 BF16 (Q fragments kept in registers, K through
//     ldmatrix), an online softmax in registers in the exp2 domain (the scale
//     1/sqrt(128) log2(e) folded into one multiply; row max and sum over the lanes of a
//     quad with shuffles), P rounded to BF16 in place as the A operand of O += P V
//     (V through ldmatrix.trans); O divided by the row sum and rounded to BF16 at the end.
// The check: the output is compared with the reference's FP32 value within kRelTolerance
// (just above half a BF16 unit in the last place, the final rounding) plus kAbsTolerance
// (exp2 and the sums' order) plus kSpreadTolerance of the size of the terms it sums
// (sum_j p_j |v_j| / sum_j p_j). That last part is for P: where the scores are not exact in
// FP32 (a layer's Q and K; the suite's are multiples of 1/8, so exact) the kernel's and the
// reference's p_j can round to neighbouring BF16 values, each such flip moving one term
// by 2^-8 to 2^-7 of its size; a few of the terms flip, not most.
// SASS: LDGSTS, LDSM.16.M88.4, LDSM.16.MT88.4, HMMA.16816.F32.BF16, MUFU.EX2, SHFL.BFLY.
#pragma once

#include <span>
#include <vector>

#include "kernels/launch.h"
#include "kernels/params.h"

namespace sassim::kernels::prefill_attention {

inline constexpr std::string_view kKernel = "prefill_attention";
inline constexpr uint32_t kHeadDim = 128;
inline constexpr uint32_t kBlockQ = 64;   // query rows per CTA
inline constexpr uint32_t kBlockKV = 64;  // keys per step
inline constexpr uint32_t kThreads = 128;
inline constexpr uint32_t kTileBytes = kBlockKV * kHeadDim * 2;  // 16 KiB
inline constexpr uint32_t kSharedBytes = 5 * kTileBytes;         // Q, 2 K, 2 V
// 1/sqrt(128) * log2(e): scores scaled into the exp2 domain with one multiply.
inline constexpr float kScaleLog2 = 0.08838834764831845F * 1.44269504088896340736F;
inline constexpr double kRelTolerance = 4e-3;  // 2^-8 = 0.0039: half a BF16 ulp, relative
inline constexpr double kAbsTolerance = 1e-5;
inline constexpr double kSpreadTolerance = 1.0 / 512;  // 2^-9 of sum_j p_j |v_j| / sum_j p_j

struct Problem {
  uint32_t batch = 1;
  uint32_t seq_len = 1024;
  uint32_t heads = 32;
  uint32_t kv_heads = 8;
  uint32_t causal = 1;
  constexpr uint64_t tokens() const { return uint64_t{batch} * seq_len; }
  constexpr uint32_t group() const { return heads / kv_heads; }
};

// Values: [BATCH [SEQ_LEN [HEADS [KV_HEADS [CAUSAL]]]]]; SEQ_LEN a multiple of 64, HEADS a
// multiple of KV_HEADS, CAUSAL 0 or 1.
Problem parse_problem(ParamValues values);

constexpr Launch launch(const Problem& p) {
  Launch l{.kernel = kKernel,
           .grid = {p.seq_len / kBlockQ, p.heads, p.batch},
           .block = {kThreads},
           .dynamic_shared_bytes = kSharedBytes};
  const uint64_t q_bytes = p.tokens() * p.heads * kHeadDim * 2;
  const uint64_t kv_bytes = p.tokens() * p.kv_heads * kHeadDim * 2;
  l.add(buffer_arg("q", q_bytes, Access::kRead))
      .add(buffer_arg("k", kv_bytes, Access::kRead))
      .add(buffer_arg("v", kv_bytes, Access::kRead))
      .add(buffer_arg("o", q_bytes, Access::kWrite))
      .add(u32_arg("seq_len", p.seq_len))
      .add(u32_arg("heads", p.heads))
      .add(u32_arg("kv_heads", p.kv_heads))
      .add(u32_arg("causal", p.causal));
  return l;
}

// The kernel's algorithm on the CPU: key blocks of 64 in order, the causal mask, running
// max and sum in the exp2 domain, P rounded to BF16 before it multiplies V; FP32 output
// before the final BF16 rounding, [tokens][heads][128]. With `spread`, also sum_j p_j |v_j|
// / sum_j p_j per output (the size of the terms an output is the sum of).
std::vector<float> reference_blockwise(const Problem& p, std::span<const uint16_t> q,
                                       std::span<const uint16_t> k, std::span<const uint16_t> v,
                                       std::vector<float>* spread = nullptr);

// The check's tolerance for each output: kAbsTolerance + kRelTolerance |want| +
// kSpreadTolerance spread, with want and spread from reference_blockwise.
std::vector<double> tolerances(const std::vector<float>& want, const std::vector<float>& spread);

// Plain softmax(Q K^T / sqrt(128) + mask) V in double precision, for checking.
std::vector<float> reference_naive(const Problem& p, std::span<const uint16_t> q,
                                   std::span<const uint16_t> k, std::span<const uint16_t> v);

}  // namespace sassim::kernels::prefill_attention
