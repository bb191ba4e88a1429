// rope: see rope.h.
#include <cstdint>

#include "kernels/bf16_vec.cuh"
#include "kernels/cuda_host.cuh"
#include "kernels/rope.h"
#include "kernels/values.h"

namespace {

namespace cfg = sassim::kernels::rope;
using sassim::kernels::bf16x8_to_float;
using sassim::kernels::float_to_bf16x8;

constexpr uint32_t kChunksPerHead = cfg::kHalf / cfg::kChunk;  // 8
constexpr uint32_t kHeadChunks = cfg::kHeadDim / cfg::kChunk;  // 16-byte chunks per head

// Rotates the 8 pairs at chunk `c` (of 8) of one head in place.
__device__ __forceinline__ void rotate(uint4* head, const float4* cs, uint32_t c) {
  float lo[8], hi[8];
  bf16x8_to_float(head[c], lo);
  bf16x8_to_float(head[kChunksPerHead + c], hi);
  const float4 c0 = cs[2 * c], c1 = cs[2 * c + 1];
  const float4 s0 = cs[cfg::kHalf / 4 + 2 * c], s1 = cs[cfg::kHalf / 4 + 2 * c + 1];
  const float cosv[8] = {c0.x, c0.y, c0.z, c0.w, c1.x, c1.y, c1.z, c1.w};
  const float sinv[8] = {s0.x, s0.y, s0.z, s0.w, s1.x, s1.y, s1.z, s1.w};
  float out_lo[8], out_hi[8];
#pragma unroll
  for (int i = 0; i < 8; ++i) {
    out_lo[i] = __fmaf_rn(lo[i], cosv[i], -__fmul_rn(hi[i], sinv[i]));
    out_hi[i] = __fmaf_rn(hi[i], cosv[i], __fmul_rn(lo[i], sinv[i]));
  }
  head[c] = float_to_bf16x8(out_lo);
  head[kChunksPerHead + c] = float_to_bf16x8(out_hi);
}

}  // namespace

extern "C" __global__ void __launch_bounds__(128)
    rope(const int32_t* __restrict__ positions, uint4* __restrict__ q, uint4* __restrict__ k,
         const float4* __restrict__ cos_sin, uint32_t heads, uint32_t kv_heads) {
  const uint32_t token = blockIdx.x;
  const float4* cs = cos_sin + static_cast<size_t>(positions[token]) * (cfg::kHeadDim / 4);
  const uint32_t units = (heads + kv_heads) * kChunksPerHead;
  for (uint32_t u = threadIdx.x; u < units; u += cfg::kThreads) {
    const uint32_t head = u / kChunksPerHead;
    const uint32_t c = u % kChunksPerHead;
    uint4* base = head < heads
                      ? q + (static_cast<size_t>(token) * heads + head) * kHeadChunks
                      : k + (static_cast<size_t>(token) * kv_heads + head - heads) * kHeadChunks;
    rotate(base, cs, c);
  }
}

namespace {

bool run(std::string_view, sassim::kernels::ParamValues values) {
  using namespace sassim::kernels;
  const auto p = cfg::parse_problem(values);
  const Launch config = cfg::launch(p);
  const std::vector<int32_t> pos = cfg::positions(p);
  const std::vector<float> table = cfg::cos_sin_table(p);
  std::vector<uint16_t> hq(size_t{p.tokens} * p.heads * cfg::kHeadDim);
  std::vector<uint16_t> hk(size_t{p.tokens} * p.kv_heads * cfg::kHeadDim);
  fill_dyadic_bf16(hq, 1);
  fill_dyadic_bf16(hk, 2);
  DeviceBuffer<int32_t> dpos(pos);
  DeviceBuffer<uint16_t> dq(hq), dk(hk);
  DeviceBuffer<float> dtable(table);
  cfg::reference(p, pos, table, p.heads, hq);
  cfg::reference(p, pos, table, p.kv_heads, hk);
  print_launch(config);
  ::rope<<<to_dim3(config.grid), to_dim3(config.block)>>>(
      dpos.get(), reinterpret_cast<uint4*>(dq.get()), reinterpret_cast<uint4*>(dk.get()),
      reinterpret_cast<const float4*>(dtable.get()), p.heads, p.kv_heads);
  finish_launch();
  const bool q_ok = check_close(bf16_to_floats(dq.download()), bf16_to_floats(hq), 0, 0, "rope q");
  const bool k_ok = check_close(bf16_to_floats(dk.download()), bf16_to_floats(hk), 0, 0, "rope k");
  return q_ok && k_ok;
}

}  // namespace

int main(int argc, char** argv) {
  return sassim::kernels::run_suite_program(argc, argv, {"rope"}, run);
}
