// decode_attention_tc: see decode_attention_tc.h.
#include <cstdint>

#include "kernels/cuda_host.cuh"
#include "kernels/decode_attention_tc.h"
#include "kernels/decode_host.cuh"
#include "kernels/decode_split.cuh"
#include "kernels/mma_bf16_sm80.cuh"
#include "kernels/values.h"

namespace {

namespace cfg = sassim::kernels::decode_attention;
namespace decode_split = sassim::kernels::decode_split;
using sassim::kernels::decode_split::fast_exp2;
using sassim::kernels::sm80::mma_16816_bf16;
using sassim::kernels::sm80::pack_bf162;

constexpr uint32_t kGroup = cfg::kGroup;
constexpr uint32_t kRowChunks = cfg::kHeadDim / 8;             // 16-byte chunks per row
constexpr uint32_t kPageChunks = cfg::kPageSize * kRowChunks;  // 256 per page
constexpr uint32_t kQuadChunks = cfg::kHeadDim / 32;           // a lane's chunks of a row: 4
constexpr uint32_t kDimTiles = cfg::kHeadDim / 16;             // output tiles of 16 rows
constexpr uint32_t kPagesPerWarp = cfg::kSplitPages / cfg::kWarps;
static_assert(kPagesPerWarp <= 32 && kGroup <= 8);
constexpr float kNoMax = -1e30F;  // a running max below any score (exp2 of the gap is 0)

// The head dimension of row r (< 16) of output tile t.
__device__ __forceinline__ uint32_t tile_dim(uint32_t t, uint32_t r) {
  return t + 8 * (r % 8) + 64 * (r / 8);
}

}  // namespace

extern "C" __global__ void __launch_bounds__(128, 3)
    decode_attention_tc(const uint4* __restrict__ q, const uint4* __restrict__ k_cache,
                        const uint4* __restrict__ v_cache, const int32_t* __restrict__ block_tables,
                        const int32_t* __restrict__ context_lens, float* __restrict__ o_partial,
                        float* __restrict__ lse) {
  __shared__ decode_split::WarpPartials parts;
  const uint32_t split = blockIdx.x, kv_head = blockIdx.y, seq = blockIdx.z;
  const uint32_t splits = gridDim.x, kv_heads = gridDim.y;
  const uint32_t context = __shfl_sync(0xffffffffU, static_cast<uint32_t>(context_lens[seq]), 0);
  if (split * cfg::kSplitTokens >= context) return;
  const uint32_t lane = threadIdx.x % 32;
  const uint32_t warp = __shfl_sync(0xffffffffU, threadIdx.x / 32, 0);
  const uint32_t group = lane / 4, quad = lane % 4;

  // Q's A fragments: row `group` (a head of the KV head's group; rows past the group and
  // rows 8-15 are zero), dimensions 32 c + 8 quad .. + 7: step 2 c takes .x/.y, 2 c + 1
  // takes .z/.w. Built once, zeros included, so that no step rebuilds its operands.
  uint32_t qa[2 * kQuadChunks][4];
#pragma unroll
  for (uint32_t c = 0; c < kQuadChunks; ++c) {
    const uint4 chunk =
        group < kGroup
            ? q[((static_cast<size_t>(seq) * kv_heads + kv_head) * kGroup + group) * kRowChunks +
                c * 4 + quad]
            : make_uint4(0, 0, 0, 0);
    qa[2 * c][0] = chunk.x;
    qa[2 * c][2] = chunk.y;
    qa[2 * c + 1][0] = chunk.z;
    qa[2 * c + 1][2] = chunk.w;
    qa[2 * c][1] = qa[2 * c][3] = qa[2 * c + 1][1] = qa[2 * c + 1][3] = 0U;
  }

  // Row `group`'s running max and (this lane's share of the) sum; O transposed, tile t
  // holding dimensions tile_dim(t, row) x heads 2 quad, 2 quad + 1 (quads 0 and 1 hold the
  // group's 4 heads).
  float m = kNoMax, l = 0.0F;
  float o[kDimTiles][4];
#pragma unroll
  for (uint32_t t = 0; t < kDimTiles; ++t) o[t][0] = o[t][1] = o[t][2] = o[t][3] = 0.0F;

  const uint32_t context_pages = (context + cfg::kPageSize - 1) / cfg::kPageSize;
  const uint32_t end_page = min(context_pages, (split + 1) * cfg::kSplitPages);
  const int32_t* table = block_tables + static_cast<size_t>(seq) * splits * cfg::kSplitPages;
  const uint32_t first_page = split * cfg::kSplitPages + warp;
  const uint32_t my_page = first_page + lane * cfg::kWarps;
  const int32_t my_entry = lane < kPagesPerWarp && my_page < end_page ? table[my_page] : 0;
  for (uint32_t page = first_page, j = 0; page < end_page; page += cfg::kWarps, ++j) {
    const int32_t entry = __shfl_sync(0xffffffffU, my_entry, j);
    const size_t base = (static_cast<size_t>(entry) * kv_heads + kv_head) * kPageChunks;
    // K: token 8 n + group's dimensions 32 c + 8 quad .. + 7 (B fragments of tile n).
    // V: chunks group and 8 + group of tokens 2 quad, 2 quad + 1, 8 + 2 quad, 9 + 2 quad.
    uint4 kr[2][kQuadChunks], vr[4][2];
#pragma unroll
    for (uint32_t n = 0; n < 2; ++n) {
#pragma unroll
      for (uint32_t c = 0; c < kQuadChunks; ++c)
        kr[n][c] = k_cache[base + (8 * n + group) * kRowChunks + c * 4 + quad];
    }
#pragma unroll
    for (uint32_t r = 0; r < 4; ++r) {
      const uint32_t token = 2 * quad + r % 2 + 8 * (r / 2);
      vr[r][0] = v_cache[base + token * kRowChunks + group];
      vr[r][1] = v_cache[base + token * kRowChunks + 8 + group];
    }
    float s[2][4];
#pragma unroll
    for (uint32_t n = 0; n < 2; ++n) {
      s[n][0] = s[n][1] = s[n][2] = s[n][3] = 0.0F;
#pragma unroll
      for (uint32_t c = 0; c < kQuadChunks; ++c) {
        mma_16816_bf16(s[n], qa[2 * c], kr[n][c].x, kr[n][c].y);
        mma_16816_bf16(s[n], qa[2 * c + 1], kr[n][c].z, kr[n][c].w);
      }
    }
    // Row `group`'s scores of tokens 8 n + 2 quad + i are s[n][i], i < 2.
    float page_max = kNoMax;
#pragma unroll
    for (uint32_t n = 0; n < 2; ++n) {
#pragma unroll
      for (uint32_t i = 0; i < 2; ++i) {
        const bool live = page * cfg::kPageSize + 8 * n + 2 * quad + i < context;
        s[n][i] = live ? s[n][i] * cfg::kScaleLog2 : -INFINITY;
        page_max = fmaxf(page_max, s[n][i]);
      }
    }
    page_max = fmaxf(page_max, __shfl_xor_sync(0xffffffffU, page_max, 1));
    page_max = fmaxf(page_max, __shfl_xor_sync(0xffffffffU, page_max, 2));
    const float new_m = fmaxf(m, page_max);
    if (__any_sync(0xffffffffU, new_m != m)) {
      const float rescale = fast_exp2(m - new_m);
      m = new_m;
      l *= rescale;
      // O's columns are heads 2 quad and 2 quad + 1: their factors come from the rows'
      // lanes (group = head, quad 0).
      const float even = __shfl_sync(0xffffffffU, rescale, 8 * quad);
      const float odd = __shfl_sync(0xffffffffU, rescale, 8 * quad + 4);
#pragma unroll
      for (uint32_t t = 0; t < kDimTiles; ++t) {
        o[t][0] *= even;
        o[t][1] *= odd;
        o[t][2] *= even;
        o[t][3] *= odd;
      }
    }
    float p[2][2];
#pragma unroll
    for (uint32_t n = 0; n < 2; ++n) {
#pragma unroll
      for (uint32_t i = 0; i < 2; ++i) {
        p[n][i] = fast_exp2(s[n][i] - m);
        l += p[n][i];
      }
    }
    // O^T += V^T P^T: P's fragments are B's as they are (column `group` = head, tokens
    // 2 quad + i and 8 + 2 quad + i); V^T's A fragments pair tokens (2 quad, 2 quad + 1) and
    // (8 + 2 quad, 9 + 2 quad) of dimensions tile_dim(t, group) and tile_dim(t, group + 8)
    // with byte permutes.
    const uint32_t pb0 = pack_bf162(p[0][0], p[0][1]), pb1 = pack_bf162(p[1][0], p[1][1]);
#pragma unroll
    for (uint32_t t = 0; t < kDimTiles; ++t) {
      const uint32_t word = t / 2, select = t % 2 ? 0x7632U : 0x5410U;
      const uint32_t va[4] = {__byte_perm((&vr[0][0].x)[word], (&vr[1][0].x)[word], select),
                              __byte_perm((&vr[0][1].x)[word], (&vr[1][1].x)[word], select),
                              __byte_perm((&vr[2][0].x)[word], (&vr[3][0].x)[word], select),
                              __byte_perm((&vr[2][1].x)[word], (&vr[3][1].x)[word], select)};
      mma_16816_bf16(o[t], va, pb0, pb1);
    }
  }
  // l: the quad's four lanes held different tokens of row `group`.
  l += __shfl_xor_sync(0xffffffffU, l, 1);
  l += __shfl_xor_sync(0xffffffffU, l, 2);
  if (quad < kGroup / 2) {
#pragma unroll
    for (uint32_t t = 0; t < kDimTiles; ++t) {
      parts.o[warp][2 * quad][tile_dim(t, group)] = o[t][0];
      parts.o[warp][2 * quad + 1][tile_dim(t, group)] = o[t][1];
      parts.o[warp][2 * quad][tile_dim(t, group + 8)] = o[t][2];
      parts.o[warp][2 * quad + 1][tile_dim(t, group + 8)] = o[t][3];
    }
  }
  if (group < kGroup && quad == 0) {
    parts.m[warp][group] = m;
    parts.l[warp][group] = l;
  }
  __syncthreads();
  decode_split::store_split(parts, static_cast<size_t>(seq) * kv_heads * kGroup + kv_head * kGroup,
                            split, splits, o_partial, lse);
}

namespace {

bool run(std::string_view, sassim::kernels::ParamValues values) {
  using namespace sassim::kernels;
  cfg::DecodeRun run(values, decode_attention_tc::reference_partials);
  run.launch(::decode_attention_tc, decode_attention_tc::launch(run.p));
  return run.check_partials(decode_attention_tc::kKernel);
}

}  // namespace

int main(int argc, char** argv) {
  return sassim::kernels::run_suite_program(argc, argv, {"decode_attention_tc"}, run);
}
