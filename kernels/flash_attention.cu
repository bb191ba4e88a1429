// flash_attention_fwd: see flash_attention.h.
#include <cuda_fp16.h>

#include <cstdint>

#include "kernels/cuda_host.cuh"
#include "kernels/flash_attention.h"
#include "kernels/mma_sm80.cuh"
#include "kernels/values.h"

namespace {

namespace cfg = sassim::kernels::flash_attention;
using namespace sassim::kernels::sm80;

constexpr uint32_t kRowBytes = cfg::kHeadDim * 2;  // 128: eight 16-byte chunks
constexpr uint32_t kTileBytes = cfg::kBlockKV * kRowBytes;

__device__ __forceinline__ uint32_t swizzle(uint32_t row, uint32_t chunk) {
  return row * kRowBytes + ((chunk ^ (row % 8)) << 4);
}

// Copies 64 rows of 64 halves starting at `rows` into a swizzled tile: 512 chunks, 4 per thread.
__device__ __forceinline__ void load_tile(uint32_t tile, const __half* rows) {
#pragma unroll
  for (uint32_t i = 0; i < 4; ++i) {
    const uint32_t index = threadIdx.x + i * cfg::kThreads;
    const uint32_t row = index / 8;
    const uint32_t chunk = index % 8;
    cp_async_16(tile + swizzle(row, chunk), rows + row * cfg::kHeadDim + chunk * 8);
  }
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
    flash_attention_fwd(const __half* __restrict__ q, const __half* __restrict__ k,
                        const __half* __restrict__ v, float* __restrict__ o, uint32_t seq_len) {
  __shared__ __align__(128) unsigned char q_tile[kTileBytes];
  __shared__ __align__(128) unsigned char k_tiles[2][kTileBytes];
  __shared__ __align__(128) unsigned char v_tiles[2][kTileBytes];
  const uint32_t lane = threadIdx.x % 32;
  const uint32_t warp = threadIdx.x / 32;
  const size_t head = size_t{blockIdx.y} * seq_len * cfg::kHeadDim;
  const uint32_t q0 = blockIdx.x * cfg::kBlockQ;
  const uint32_t q_smem = shared_address(q_tile);
  const uint32_t blocks = seq_len / cfg::kBlockKV;

  load_tile(q_smem, q + head + size_t{q0} * cfg::kHeadDim);
  load_tile(shared_address(k_tiles[0]), k + head);
  load_tile(shared_address(v_tiles[0]), v + head);
  cp_async_commit();

  uint32_t q_frag[4][4];                      // 16 rows x 64 dims of this warp, four k16 steps
  float o_acc[8][4] = {};                     // 16 rows x 64 dims: eight n8 tiles
  float row_max[2] = {-INFINITY, -INFINITY};  // rows lane/4 and lane/4 + 8
  float row_sum[2] = {0.0F, 0.0F};            // this lane's share of the row sums

  for (uint32_t block = 0; block < blocks; ++block) {
    const uint32_t stage = block % 2;
    if (block + 1 < blocks) {
      const size_t rows = head + size_t{block + 1} * cfg::kBlockKV * cfg::kHeadDim;
      load_tile(shared_address(k_tiles[stage ^ 1]), k + rows);
      load_tile(shared_address(v_tiles[stage ^ 1]), v + rows);
    }
    cp_async_commit();
    cp_async_wait<1>();
    __syncthreads();
    if (block == 0) {
#pragma unroll
      for (uint32_t kk = 0; kk < 4; ++kk) {
        ldmatrix_x4(q_frag[kk], q_smem + swizzle(warp * 16 + lane % 16, kk * 2 + lane / 16));
      }
    }

    // S = Q K^T: 16 x 64 per warp.
    const uint32_t k_smem = shared_address(k_tiles[stage]);
    float s[8][4] = {};
#pragma unroll
    for (uint32_t kk = 0; kk < 4; ++kk) {
#pragma unroll
      for (uint32_t pair = 0; pair < 4; ++pair) {
        uint32_t r[4];
        ldmatrix_x4(
            r, k_smem + swizzle(pair * 16 + lane % 8 + (lane / 16) * 8, kk * 2 + (lane / 8) % 2));
        mma_16816(s[2 * pair], q_frag[kk], r[0], r[1]);
        mma_16816(s[2 * pair + 1], q_frag[kk], r[2], r[3]);
      }
    }

    // Online softmax in the exp2 domain; element e of a tile is row lane/4 (+8 for e >= 2).
#pragma unroll
    for (uint32_t half_row = 0; half_row < 2; ++half_row) {
      float block_max = -INFINITY;
#pragma unroll
      for (uint32_t t = 0; t < 8; ++t) {
#pragma unroll
        for (uint32_t e = 0; e < 2; ++e) {
          s[t][2 * half_row + e] *= cfg::kScaleLog2;
          block_max = fmaxf(block_max, s[t][2 * half_row + e]);
        }
      }
      const float new_max = fmaxf(row_max[half_row], quad_max(block_max));
      const float correction = exp2f(row_max[half_row] - new_max);
      row_max[half_row] = new_max;
      row_sum[half_row] *= correction;
#pragma unroll
      for (uint32_t t = 0; t < 8; ++t) {
        o_acc[t][2 * half_row] *= correction;
        o_acc[t][2 * half_row + 1] *= correction;
#pragma unroll
        for (uint32_t e = 0; e < 2; ++e) {
          const float prob = exp2f(s[t][2 * half_row + e] - new_max);
          s[t][2 * half_row + e] = prob;
          row_sum[half_row] += prob;
        }
      }
    }

    // O += P V: P's accumulator layout is the A-operand layout of the next mma.
    const uint32_t v_smem = shared_address(v_tiles[stage]);
#pragma unroll
    for (uint32_t kk = 0; kk < 4; ++kk) {
      const uint32_t p_frag[4] = {pack_half2(s[2 * kk][0], s[2 * kk][1]),
                                  pack_half2(s[2 * kk][2], s[2 * kk][3]),
                                  pack_half2(s[2 * kk + 1][0], s[2 * kk + 1][1]),
                                  pack_half2(s[2 * kk + 1][2], s[2 * kk + 1][3])};
#pragma unroll
      for (uint32_t pair = 0; pair < 4; ++pair) {
        uint32_t r[4];
        ldmatrix_x4_trans(
            r, v_smem + swizzle(kk * 16 + lane % 8 + ((lane / 8) % 2) * 8, pair * 2 + lane / 16));
        mma_16816(o_acc[2 * pair], p_frag, r[0], r[1]);
        mma_16816(o_acc[2 * pair + 1], p_frag, r[2], r[3]);
      }
    }
    __syncthreads();  // the next iteration's copies overwrite this stage
  }

#pragma unroll
  for (uint32_t half_row = 0; half_row < 2; ++half_row) {
    const float inverse = 1.0F / quad_sum(row_sum[half_row]);
    const uint32_t row = q0 + warp * 16 + lane / 4 + half_row * 8;
    float* out = o + head + size_t{row} * cfg::kHeadDim;
#pragma unroll
    for (uint32_t t = 0; t < 8; ++t) {
      *reinterpret_cast<float2*>(&out[t * 8 + (lane % 4) * 2]) =
          make_float2(o_acc[t][2 * half_row] * inverse, o_acc[t][2 * half_row + 1] * inverse);
    }
  }
}

namespace {

bool run(std::string_view, sassim::kernels::ParamValues values) {
  using namespace sassim::kernels;
  const auto problem = cfg::parse_problem(values);
  const Launch config = cfg::launch(problem);
  const size_t elements = size_t{problem.batch_heads} * problem.seq_len * cfg::kHeadDim;
  std::vector<uint16_t> hq(elements), hk(elements), hv(elements);
  fill_dyadic_half(hq, 1);
  fill_dyadic_half(hk, 2);
  fill_dyadic_half(hv, 3);
  std::vector<float> want(elements);
  cfg::reference_blockwise(problem, hq, hk, hv, want);
  DeviceBuffer<uint16_t> dq(hq), dk(hk), dv(hv);
  DeviceBuffer<float> dout(elements);
  print_launch(config);
  flash_attention_fwd<<<to_dim3(config.grid), to_dim3(config.block)>>>(
      reinterpret_cast<const __half*>(dq.get()), reinterpret_cast<const __half*>(dk.get()),
      reinterpret_cast<const __half*>(dv.get()), dout.get(), problem.seq_len);
  finish_launch();
  return check_close(dout.download(), want, 1e-3, 1e-4, "flash_attention_fwd");
}

}  // namespace

int main(int argc, char** argv) {
  return sassim::kernels::run_suite_program(argc, argv, {"flash_attention_fwd"}, run);
}
