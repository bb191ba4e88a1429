// decode_attention and decode_attention_combine: see decode_attention.h.
#include <cstdint>

#include "kernels/bf16_vec.cuh"
#include "kernels/cuda_host.cuh"
#include "kernels/decode_attention.h"
#include "kernels/decode_host.cuh"
#include "kernels/values.h"

namespace {

namespace cfg = sassim::kernels::decode_attention;
using sassim::kernels::bf16x8_to_float;

constexpr uint32_t kGroup = cfg::kGroup;
constexpr uint32_t kRowChunks = cfg::kHeadDim / 8;                  // 16-byte chunks per row
constexpr uint32_t kPageChunks = cfg::kPageSize * kRowChunks;       // 256 per page
constexpr uint32_t kLoads = kPageChunks / 32;                       // 8 per lane and page
constexpr uint32_t kPagesPerWarp = cfg::kSplitPages / cfg::kWarps;  // 8
static_assert(kPagesPerWarp <= 32);
constexpr uint32_t kQHalfStride = 68;  // floats between the query's half rows in q_s
constexpr float kNoMax = -1e30F;       // a running max below any score (exp2 of the gap is 0)

// 2^x as one MUFU.EX2 (exp2f adds a range reduction for denormal results).
__device__ __forceinline__ float fast_exp2(float x) {
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}

}  // namespace

extern "C" __global__ void __launch_bounds__(128)
    decode_attention(const uint4* __restrict__ q, const uint4* __restrict__ k_cache,
                     const uint4* __restrict__ v_cache, const int32_t* __restrict__ block_tables,
                     const int32_t* __restrict__ context_lens, float* __restrict__ o_partial,
                     float* __restrict__ lse) {
  __shared__ __align__(16) float q_s[kGroup * 2][kQHalfStride];
  __shared__ float warp_m[cfg::kWarps][kGroup];
  __shared__ float warp_l[cfg::kWarps][kGroup];
  __shared__ float warp_o[cfg::kWarps][kGroup][cfg::kHeadDim];
  const uint32_t split = blockIdx.x, kv_head = blockIdx.y, seq = blockIdx.z;
  const uint32_t splits = gridDim.x, kv_heads = gridDim.y;
  // Broadcast from lane 0, the context and warp index are provably warp-uniform: nvcc
  // then keeps the shuffles of the page loop free of divergent-warp fallbacks.
  const uint32_t context = __shfl_sync(0xffffffffU, static_cast<uint32_t>(context_lens[seq]), 0);
  if (split * cfg::kSplitTokens >= context) return;
  const uint32_t lane = threadIdx.x % 32;
  const uint32_t warp = __shfl_sync(0xffffffffU, threadIdx.x / 32, 0);
  const uint32_t half = lane / 16, token = lane % 16;

  // The 4 query rows, scaled into the exp2 domain, to shared memory: row h's dimensions
  // 64 dh .. 64 dh + 63 at q_s[2 h + dh] (rows 68 floats apart, so that the two halves of
  // a warp read different banks).
  {
    const uint2 four = reinterpret_cast<const uint2*>(
        q + (static_cast<size_t>(seq) * kv_heads + kv_head) * kGroup * kRowChunks)[threadIdx.x];
    const uint32_t e = threadIdx.x * 4, h = e / cfg::kHeadDim, d = e % cfg::kHeadDim;
    float* row = &q_s[2 * h + d / 64][d % 64];
    row[0] = __uint_as_float(four.x << 16) * cfg::kScaleLog2;
    row[1] = __uint_as_float(four.x & 0xffff0000U) * cfg::kScaleLog2;
    row[2] = __uint_as_float(four.y << 16) * cfg::kScaleLog2;
    row[3] = __uint_as_float(four.y & 0xffff0000U) * cfg::kScaleLog2;
  }
  __syncthreads();
  float m[kGroup], l[kGroup], acc[kGroup][8];
#pragma unroll
  for (uint32_t h = 0; h < kGroup; ++h) {
    m[h] = kNoMax;
    l[h] = 0.0F;
#pragma unroll
    for (int i = 0; i < 8; ++i) acc[h][i] = 0.0F;
  }

  const uint32_t context_pages = (context + cfg::kPageSize - 1) / cfg::kPageSize;
  const uint32_t end_page = min(context_pages, (split + 1) * cfg::kSplitPages);
  // The warp's pages are w, w + 4, ...: lane j looks up the j-th in the block table up
  // front, so that no page waits for its table entry.
  const int32_t* table = block_tables + static_cast<size_t>(seq) * splits * cfg::kSplitPages;
  const uint32_t first_page = split * cfg::kSplitPages + warp;
  const uint32_t my_page = first_page + lane * cfg::kWarps;
  const int32_t my_entry = lane < kPagesPerWarp && my_page < end_page ? table[my_page] : 0;
  for (uint32_t page = first_page, j = 0; page < end_page; page += cfg::kWarps, ++j) {
    const int32_t entry = __shfl_sync(0xffffffffU, my_entry, j);
    const size_t base = (static_cast<size_t>(entry) * kv_heads + kv_head) * kPageChunks;
    // K: lane (half, token) loads dimensions 64 half .. 64 half + 63 of its token's row.
    // V: chunk lane % 16 of tokens 2j + half (512 contiguous bytes per load).
    uint4 kr[kLoads], vr[kLoads];
#pragma unroll
    for (uint32_t c = 0; c < kLoads; ++c) kr[c] = k_cache[base + token * kRowChunks + half * 8 + c];
#pragma unroll
    for (uint32_t j = 0; j < kLoads; ++j) vr[j] = v_cache[base + j * 32 + lane];
    float s[kGroup] = {0.0F, 0.0F, 0.0F, 0.0F};
#pragma unroll
    for (uint32_t c = 0; c < kLoads; ++c) {
      float kf[8];
      bf16x8_to_float(kr[c], kf);
#pragma unroll
      for (uint32_t h = 0; h < kGroup; ++h) {
        const float4 q0 = *reinterpret_cast<const float4*>(&q_s[2 * h + half][c * 8]);
        const float4 q1 = *reinterpret_cast<const float4*>(&q_s[2 * h + half][c * 8 + 4]);
        s[h] = __fmaf_rn(q0.x, kf[0], s[h]);
        s[h] = __fmaf_rn(q0.y, kf[1], s[h]);
        s[h] = __fmaf_rn(q0.z, kf[2], s[h]);
        s[h] = __fmaf_rn(q0.w, kf[3], s[h]);
        s[h] = __fmaf_rn(q1.x, kf[4], s[h]);
        s[h] = __fmaf_rn(q1.y, kf[5], s[h]);
        s[h] = __fmaf_rn(q1.z, kf[6], s[h]);
        s[h] = __fmaf_rn(q1.w, kf[7], s[h]);
      }
    }
    // Both halves of the warp end with the 16 tokens' scores; online softmax per head.
    const bool live = page * cfg::kPageSize + token < context;
    float p[kGroup];
#pragma unroll
    for (uint32_t h = 0; h < kGroup; ++h) {
      s[h] += __shfl_xor_sync(0xffffffffU, s[h], 16);
      s[h] = live ? s[h] : -INFINITY;
      float page_max = s[h];
#pragma unroll
      for (uint32_t offset = 8; offset > 0; offset /= 2)
        page_max = fmaxf(page_max, __shfl_xor_sync(0xffffffffU, page_max, offset));
      const float new_m = fmaxf(m[h], page_max);
      const float rescale = fast_exp2(m[h] - new_m);
      m[h] = new_m;
      p[h] = fast_exp2(s[h] - new_m);
      l[h] = __fmaf_rn(l[h], rescale, p[h]);
#pragma unroll
      for (int i = 0; i < 8; ++i) acc[h][i] *= rescale;
    }
    // P V: token 2j + half's weights come from the lane that scored it.
#pragma unroll
    for (uint32_t j = 0; j < kLoads; ++j) {
      float vf[8];
      bf16x8_to_float(vr[j], vf);
#pragma unroll
      for (uint32_t h = 0; h < kGroup; ++h) {
        const float pj = __shfl_sync(0xffffffffU, p[h], 2 * j + half);
#pragma unroll
        for (int i = 0; i < 8; ++i) acc[h][i] = __fmaf_rn(pj, vf[i], acc[h][i]);
      }
    }
  }
  // Each lane's l holds its token's weights: sum the 16 tokens of a half.
#pragma unroll
  for (uint32_t h = 0; h < kGroup; ++h) {
#pragma unroll
    for (uint32_t offset = 8; offset > 0; offset /= 2)
      l[h] += __shfl_xor_sync(0xffffffffU, l[h], offset);
  }
  // The two halves of the warp accumulated alternate tokens: add them, merge the warps.
#pragma unroll
  for (uint32_t h = 0; h < kGroup; ++h) {
#pragma unroll
    for (int i = 0; i < 8; ++i) acc[h][i] += __shfl_xor_sync(0xffffffffU, acc[h][i], 16);
  }
  if (half == 0) {
#pragma unroll
    for (uint32_t h = 0; h < kGroup; ++h) {
#pragma unroll
      for (int i = 0; i < 8; ++i) warp_o[warp][h][token * 8 + i] = acc[h][i];
    }
  }
  if (lane == 0) {
#pragma unroll
    for (uint32_t h = 0; h < kGroup; ++h) {
      warp_m[warp][h] = m[h];
      warp_l[warp][h] = l[h];
    }
  }
  __syncthreads();
  const uint32_t d = threadIdx.x;
#pragma unroll
  for (uint32_t h = 0; h < kGroup; ++h) {
    float big = warp_m[0][h];
#pragma unroll
    for (uint32_t w = 1; w < cfg::kWarps; ++w) big = fmaxf(big, warp_m[w][h]);
    float sum = 0.0F, out = 0.0F;
#pragma unroll
    for (uint32_t w = 0; w < cfg::kWarps; ++w) {
      const float scale = fast_exp2(warp_m[w][h] - big);
      sum = __fmaf_rn(warp_l[w][h], scale, sum);
      out = __fmaf_rn(warp_o[w][h][d], scale, out);
    }
    const size_t at =
        (static_cast<size_t>(seq) * kv_heads * kGroup + kv_head * kGroup + h) * splits + split;
    o_partial[at * cfg::kHeadDim + d] = __fdividef(out, sum);
    if (d == 0) lse[at] = big + log2f(sum);
  }
}

extern "C" __global__ void __launch_bounds__(128)
    decode_attention_combine(const float* __restrict__ o_partial, const float* __restrict__ lse,
                             const int32_t* __restrict__ context_lens, float* __restrict__ out,
                             uint32_t splits) {
  const uint32_t head = blockIdx.x, seq = blockIdx.y, heads = gridDim.x;
  const uint32_t used =
      (static_cast<uint32_t>(context_lens[seq]) + cfg::kSplitTokens - 1) / cfg::kSplitTokens;
  const size_t base = (static_cast<size_t>(seq) * heads + head) * splits;
  float big = -INFINITY;
  for (uint32_t s = 0; s < used; ++s) big = fmaxf(big, lse[base + s]);
  float sum = 0.0F, o = 0.0F;
  for (uint32_t s = 0; s < used; ++s) {
    const float w = fast_exp2(lse[base + s] - big);
    sum += w;
    o = __fmaf_rn(w, o_partial[(base + s) * cfg::kHeadDim + threadIdx.x], o);
  }
  out[(static_cast<size_t>(seq) * heads + head) * cfg::kHeadDim + threadIdx.x] = __fdividef(o, sum);
}

namespace {

bool run(std::string_view kernel, sassim::kernels::ParamValues values) {
  using namespace sassim::kernels;
  cfg::DecodeRun run(values, cfg::reference_partials);
  run.launch(::decode_attention, cfg::launch(run.p));
  if (kernel == cfg::kKernel) return run.check_partials(cfg::kKernel);
  const cfg::Problem& p = run.p;
  DeviceBuffer<float> dout(size_t{p.batch} * p.heads() * cfg::kHeadDim);
  const Launch combine = cfg::combine_launch(p);
  print_launch(combine);
  ::decode_attention_combine<<<to_dim3(combine.grid), to_dim3(combine.block)>>>(
      run.dpartial.get(), run.dlse.get(), run.dlens.get(), dout.get(), p.splits());
  finish_launch();
  return check_close(dout.download(), cfg::reference_naive(p, run.q, run.k, run.v),
                     cfg::kRelTolerance, cfg::kAbsTolerance, "decode_attention_combine");
}

}  // namespace

int main(int argc, char** argv) {
  return sassim::kernels::run_suite_program(argc, argv,
                                            {"decode_attention", "decode_attention_combine"}, run);
}
