// swiglu: see swiglu.h.
#include <cstdint>

#include "kernels/bf16_vec.cuh"
#include "kernels/cuda_host.cuh"
#include "kernels/swiglu.h"
#include "kernels/values.h"

namespace {

namespace cfg = sassim::kernels::swiglu;
using sassim::kernels::bf16x8_to_float;
using sassim::kernels::float_to_bf16x8;
using sassim::kernels::round_bf16;

}  // namespace

extern "C" __global__ void __launch_bounds__(256)
    swiglu(const uint4* __restrict__ gate_up, uint4* __restrict__ out, uint32_t ffn) {
  const uint32_t chunks = ffn / cfg::kChunk;
  const uint32_t c = blockIdx.x * cfg::kThreads + threadIdx.x;
  if (c >= chunks) return;
  const uint4* row = gate_up + static_cast<size_t>(blockIdx.y) * 2 * chunks;
  float g[8], u[8];
  bf16x8_to_float(row[c], g);
  bf16x8_to_float(row[chunks + c], u);
#pragma unroll
  for (int i = 0; i < 8; ++i) {
    const float e = __expf(-g[i]);
    const float s = round_bf16(__fdividef(g[i], __fadd_rn(1.0F, e)));
    g[i] = __fmul_rn(s, u[i]);
  }
  out[static_cast<size_t>(blockIdx.y) * chunks + c] = float_to_bf16x8(g);
}

namespace {

bool run(std::string_view, sassim::kernels::ParamValues values) {
  using namespace sassim::kernels;
  const auto problem = cfg::parse_problem(values);
  const Launch config = cfg::launch(problem);
  std::vector<uint16_t> hin(size_t{problem.tokens} * 2 * problem.ffn);
  fill_dyadic_bf16(hin, 1);
  std::vector<uint16_t> want(hin.size() / 2);
  cfg::reference(problem, hin, want);
  DeviceBuffer<uint16_t> din(hin), dout(want.size());
  print_launch(config);
  ::swiglu<<<to_dim3(config.grid), to_dim3(config.block)>>>(
      reinterpret_cast<const uint4*>(din.get()), reinterpret_cast<uint4*>(dout.get()), problem.ffn);
  finish_launch();
  return check_close(bf16_to_floats(dout.download()), bf16_to_floats(want), cfg::kGpuTolerance, 0,
                     "swiglu");
}

}  // namespace

int main(int argc, char** argv) {
  return sassim::kernels::run_suite_program(argc, argv, {"swiglu"}, run);
}
