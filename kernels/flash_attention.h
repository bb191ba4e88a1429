// flash_attention_fwd (sm_80 and later): O = softmax(Q K^T / sqrt(d)) V per (batch,
// head), FlashAttention-2 style, non-causal, head dimension 64. Q, K, V are FP16
// [batch_heads][seq_len][64]; O is FP32, same shape.
//   - a CTA of 4 warps takes 64 query rows (16 per warp) and walks the keys 64 at a
//     time; K and V blocks are double-buffered in shared memory with cp.async; rows of
//     128 bytes have their 16-byte chunks XOR-swizzled (chunk ^ row % 8);
//   - S = Q K^T with mma.sync.m16n8k16 (Q fragments kept in registers, K through
//     ldmatrix), an online softmax in registers (row max and sum across the four lanes
//     of a quad with shuffles, exp2 with the scale folded in), P converted to FP16 in
//     place as the A operand of O += P V (V through ldmatrix.trans);
//   - O is divided by the row sum at the end.
// SASS: LDGSTS, LDSM.16.M88.4, LDSM.16.MT88.4, HMMA.16816.F32, MUFU.EX2, SHFL.BFLY.
#pragma once

#include <span>

#include "kernels/launch.h"
#include "kernels/params.h"

namespace sassim::kernels::flash_attention {

inline constexpr std::string_view kKernel = "flash_attention_fwd";
inline constexpr uint32_t kHeadDim = 64;
inline constexpr uint32_t kBlockQ = 64;   // query rows per CTA
inline constexpr uint32_t kBlockKV = 64;  // keys per step
inline constexpr uint32_t kThreads = 128;
// log2(e) / sqrt(64): scores are scaled into the exp2 domain with one multiply.
inline constexpr float kScaleLog2 = 0.125F * 1.44269504088896340736F;

struct Problem {
  uint32_t batch_heads = 16;
  uint32_t seq_len = 1024;
};

// Values: [BATCH_HEADS [SEQ_LEN]]; SEQ_LEN a multiple of 64.
Problem parse_problem(ParamValues values);

constexpr Launch launch(const Problem& p) {
  Launch l{.kernel = kKernel, .grid = {p.seq_len / kBlockQ, p.batch_heads}, .block = {kThreads}};
  const uint64_t elements = uint64_t{p.batch_heads} * p.seq_len * kHeadDim;
  l.add(buffer_arg("q", elements * 2, Access::kRead))
      .add(buffer_arg("k", elements * 2, Access::kRead))
      .add(buffer_arg("v", elements * 2, Access::kRead))
      .add(buffer_arg("o", elements * 4, Access::kWrite))
      .add(u32_arg("seq_len", p.seq_len));
  return l;
}

// The kernel's algorithm on the CPU: key blocks of 64 in order, running max and sum in
// the exp2 domain, P rounded to FP16 before it multiplies V. Matches the kernel to
// about 1e-5 relative (exp2 and summation order differ).
void reference_blockwise(const Problem& p, std::span<const uint16_t> q, std::span<const uint16_t> k,
                         std::span<const uint16_t> v, std::span<float> o);

// Plain softmax(Q K^T / 8) V in double precision, for checking.
void reference_naive(const Problem& p, std::span<const uint16_t> q, std::span<const uint16_t> k,
                     std::span<const uint16_t> v, std::span<float> o);

}  // namespace sassim::kernels::flash_attention
