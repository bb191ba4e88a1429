// prefill_attention: see prefill_attention.h.
#include <cuda_bf16.h>

#include <cstdint>

#include "kernels/cuda_host.cuh"
#include "kernels/mma_bf16_sm80.cuh"
#include "kernels/mma_sm80.cuh"
#include "kernels/prefill_attention.h"
#include "kernels/values.h"

namespace {

namespace cfg = sassim::kernels::prefill_attention;
using namespace sassim::kernels::sm80;

constexpr uint32_t kRowBytes = cfg::kHeadDim * 2;  // 256: sixteen 16-byte chunks
constexpr uint32_t kChunks = kRowBytes / 16;

__device__ __forceinline__ uint32_t swizzle(uint32_t row, uint32_t chunk) {
  return row * kRowBytes + ((chunk ^ (row % 8)) << 4);
}

// Copies 64 rows of 128 BF16 (global row stride `stride` elements) into a swizzled tile:
// 1,024 chunks, 8 per thread.
__device__ __forceinline__ void load_tile(uint32_t tile, const __nv_bfloat16* rows, size_t stride) {
#pragma unroll
  for (uint32_t i = 0; i < cfg::kBlockKV * kChunks / cfg::kThreads; ++i) {
    const uint32_t index = threadIdx.x + i * cfg::kThreads;
    const uint32_t row = index / kChunks;
    const uint32_t chunk = index % kChunks;
    cp_async_16(tile + swizzle(row, chunk), rows + row * stride + chunk * 8);
  }
}

__device__ __forceinline__ float fast_exp2(float x) {
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}

__device__ __forceinline__ float quad_max(float value) {
  value = fmaxf(value, __shfl_xor_sync(0xffffffffU, value, 1));
  return fmaxf(value, __shfl_xor_sync(0xffffffffU, value, 2));
}

__device__ __forceinline__ float quad_sum(float value) {
  value += __shfl_xor_sync(0xffffffffU, value, 1);
  return value + __shfl_xor_sync(0xffffffffU, value, 2);
}

}  // namespace

extern "C" __global__ void __launch_bounds__(128)
    prefill_attention(const __nv_bfloat16* __restrict__ q, const __nv_bfloat16* __restrict__ k,
                      const __nv_bfloat16* __restrict__ v, __nv_bfloat16* __restrict__ o,
                      uint32_t seq_len, uint32_t heads, uint32_t kv_heads, uint32_t causal) {
  extern __shared__ __align__(128) unsigned char smem[];
  const uint32_t lane = threadIdx.x % 32;
  const uint32_t warp = threadIdx.x / 32;
  const uint32_t q_block = gridDim.x - 1 - blockIdx.x;  // the longest (causal) CTAs first
  const uint32_t head = blockIdx.y;
  const uint32_t kv_head = head / (heads / kv_heads);
  const size_t first = size_t{blockIdx.z} * seq_len;  // the sequence's first token
  const uint32_t q0 = q_block * cfg::kBlockQ;
  const size_t q_stride = size_t{heads} * cfg::kHeadDim;
  const size_t kv_stride = size_t{kv_heads} * cfg::kHeadDim;
  const __nv_bfloat16* k_head = k + first * kv_stride + size_t{kv_head} * cfg::kHeadDim;
  const __nv_bfloat16* v_head = v + first * kv_stride + size_t{kv_head} * cfg::kHeadDim;
  const uint32_t q_smem = shared_address(smem);
  const uint32_t k_smem0 = q_smem + cfg::kTileBytes;
  const uint32_t v_smem0 = k_smem0 + 2 * cfg::kTileBytes;
  const uint32_t blocks = causal ? q_block + 1 : seq_len / cfg::kBlockKV;

  load_tile(q_smem, q + (first + q0) * q_stride + size_t{head} * cfg::kHeadDim, q_stride);
  load_tile(k_smem0, k_head, kv_stride);
  load_tile(v_smem0, v_head, kv_stride);
  cp_async_commit();

  uint32_t q_frag[8][4];                      // 16 rows x 128 dims of this warp, eight k16 steps
  float o_acc[16][4] = {};                    // 16 rows x 128 dims: sixteen n8 tiles
  float row_max[2] = {-INFINITY, -INFINITY};  // rows lane/4 and lane/4 + 8
  float row_sum[2] = {0.0F, 0.0F};            // this lane's share of the row sums

  for (uint32_t block = 0; block < blocks; ++block) {
    const uint32_t stage = block % 2;
    if (block + 1 < blocks) {
      const size_t rows = size_t{block + 1} * cfg::kBlockKV * kv_stride;
      load_tile(k_smem0 + (stage ^ 1) * cfg::kTileBytes, k_head + rows, kv_stride);
      load_tile(v_smem0 + (stage ^ 1) * cfg::kTileBytes, v_head + rows, kv_stride);
    }
    cp_async_commit();
    cp_async_wait<1>();
    __syncthreads();
    if (block == 0) {
#pragma unroll
      for (uint32_t kk = 0; kk < 8; ++kk) {
        ldmatrix_x4(q_frag[kk], q_smem + swizzle(warp * 16 + lane % 16, kk * 2 + lane / 16));
      }
    }

    // S = Q K^T: 16 x 64 per warp.
    const uint32_t k_smem = k_smem0 + stage * cfg::kTileBytes;
    float s[8][4] = {};
#pragma unroll
    for (uint32_t kk = 0; kk < 8; ++kk) {
#pragma unroll
      for (uint32_t pair = 0; pair < 4; ++pair) {
        uint32_t r[4];
        ldmatrix_x4(
            r, k_smem + swizzle(pair * 16 + lane % 8 + (lane / 16) * 8, kk * 2 + (lane / 8) % 2));
        mma_16816_bf16(s[2 * pair], q_frag[kk], r[0], r[1]);
        mma_16816_bf16(s[2 * pair + 1], q_frag[kk], r[2], r[3]);
      }
    }

    // Online softmax in the exp2 domain; element e of a tile is row lane/4 (+8 for e >= 2),
    // column 8 t + 2 (lane % 4) + e % 2. The causal mask cuts the diagonal block.
    const bool diagonal = causal && block == q_block;
#pragma unroll
    for (uint32_t half_row = 0; half_row < 2; ++half_row) {
      const uint32_t query = warp * 16 + lane / 4 + half_row * 8;
      float block_max = -INFINITY;
#pragma unroll
      for (uint32_t t = 0; t < 8; ++t) {
#pragma unroll
        for (uint32_t e = 0; e < 2; ++e) {
          const uint32_t key = t * 8 + (lane % 4) * 2 + e;
          float& score = s[t][2 * half_row + e];
          score = diagonal && key > query ? -INFINITY : score * cfg::kScaleLog2;
          block_max = fmaxf(block_max, score);
        }
      }
      const float new_max = fmaxf(row_max[half_row], quad_max(block_max));
      const float correction = fast_exp2(row_max[half_row] - new_max);
      row_max[half_row] = new_max;
      row_sum[half_row] *= correction;
#pragma unroll
      for (uint32_t t = 0; t < 16; ++t) {
        o_acc[t][2 * half_row] *= correction;
        o_acc[t][2 * half_row + 1] *= correction;
      }
#pragma unroll
      for (uint32_t t = 0; t < 8; ++t) {
#pragma unroll
        for (uint32_t e = 0; e < 2; ++e) {
          const float prob = fast_exp2(s[t][2 * half_row + e] - new_max);
          s[t][2 * half_row + e] = prob;
          row_sum[half_row] += prob;
        }
      }
    }

    // O += P V: P's accumulator layout is the A-operand layout of the next mma.
    const uint32_t v_smem = v_smem0 + stage * cfg::kTileBytes;
#pragma unroll
    for (uint32_t kk = 0; kk < 4; ++kk) {
      const uint32_t p_frag[4] = {pack_bf162(s[2 * kk][0], s[2 * kk][1]),
                                  pack_bf162(s[2 * kk][2], s[2 * kk][3]),
                                  pack_bf162(s[2 * kk + 1][0], s[2 * kk + 1][1]),
                                  pack_bf162(s[2 * kk + 1][2], s[2 * kk + 1][3])};
#pragma unroll
      for (uint32_t pair = 0; pair < 8; ++pair) {
        uint32_t r[4];
        ldmatrix_x4_trans(
            r, v_smem + swizzle(kk * 16 + lane % 8 + ((lane / 8) % 2) * 8, pair * 2 + lane / 16));
        mma_16816_bf16(o_acc[2 * pair], p_frag, r[0], r[1]);
        mma_16816_bf16(o_acc[2 * pair + 1], p_frag, r[2], r[3]);
      }
    }
    __syncthreads();  // the next iteration's copies overwrite this stage
  }

#pragma unroll
  for (uint32_t half_row = 0; half_row < 2; ++half_row) {
    const float inverse = 1.0F / quad_sum(row_sum[half_row]);
    const size_t token = first + q0 + warp * 16 + lane / 4 + half_row * 8;
    __nv_bfloat16* out = o + token * q_stride + size_t{head} * cfg::kHeadDim;
#pragma unroll
    for (uint32_t t = 0; t < 16; ++t) {
      *reinterpret_cast<uint32_t*>(&out[t * 8 + (lane % 4) * 2]) =
          pack_bf162(o_acc[t][2 * half_row] * inverse, o_acc[t][2 * half_row + 1] * inverse);
    }
  }
}

namespace {

bool run(std::string_view, sassim::kernels::ParamValues values) {
  using namespace sassim::kernels;
  const auto p = cfg::parse_problem(values);
  const Launch config = cfg::launch(p);
  std::vector<uint16_t> hq(p.tokens() * p.heads * cfg::kHeadDim);
  std::vector<uint16_t> hk(p.tokens() * p.kv_heads * cfg::kHeadDim), hv(hk.size());
  fill_dyadic_bf16(hq, 1);
  fill_dyadic_bf16(hk, 2);
  fill_dyadic_bf16(hv, 3);
  const std::vector<float> want = cfg::reference_blockwise(p, hq, hk, hv);
  DeviceBuffer<uint16_t> dq(hq), dk(hk), dv(hv), dout(hq.size());
  SASSIM_CUDA_CHECK(cudaFuncSetAttribute(::prefill_attention,
                                         cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         static_cast<int>(cfg::kSharedBytes)));
  print_launch(config);
  ::prefill_attention<<<to_dim3(config.grid), to_dim3(config.block), cfg::kSharedBytes>>>(
      reinterpret_cast<const __nv_bfloat16*>(dq.get()),
      reinterpret_cast<const __nv_bfloat16*>(dk.get()),
      reinterpret_cast<const __nv_bfloat16*>(dv.get()),
      reinterpret_cast<__nv_bfloat16*>(dout.get()), p.seq_len, p.heads, p.kv_heads, p.causal);
  finish_launch();
  return check_close(bf16_to_floats(dout.download()), want, cfg::kRelTolerance, cfg::kAbsTolerance,
                     "prefill_attention");
}

}  // namespace

int main(int argc, char** argv) {
  return sassim::kernels::run_suite_program(argc, argv, {"prefill_attention"}, run);
}
