// stream_copy and stream_triad: see stream.h.
#include <cstdint>

#include "kernels/cuda_host.cuh"
#include "kernels/stream.h"
#include "kernels/values.h"

extern "C" __global__ void stream_copy(const float* __restrict__ a, float* __restrict__ c,
                                       uint32_t n) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i];
}

extern "C" __global__ void stream_triad(float* __restrict__ a, const float* __restrict__ b,
                                        const float* __restrict__ c, float scalar, uint32_t n) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = __fmaf_rn(scalar, c[i], b[i]);
}

namespace {

bool run(std::string_view kernel, sassim::kernels::ParamValues values) {
  using namespace sassim::kernels;
  const auto problem = stream::parse_problem(values);
  std::vector<float> a(problem.n), b(problem.n), c(problem.n);
  fill_dyadic(a, 1);
  fill_dyadic(b, 2);
  fill_dyadic(c, 3);
  DeviceBuffer<float> da(a), db(b), dc(c);
  if (kernel == stream::kCopyKernel) {
    const Launch config = stream::copy_launch(problem);
    stream::copy_reference(a, c);
    print_launch(config);
    stream_copy<<<to_dim3(config.grid), to_dim3(config.block)>>>(da.get(), dc.get(), problem.n);
    finish_launch();
    return check_close(dc.download(), c, 0, 0, kernel);
  }
  const Launch config = stream::triad_launch(problem);
  stream::triad_reference(a, b, c, stream::kScalar);
  print_launch(config);
  stream_triad<<<to_dim3(config.grid), to_dim3(config.block)>>>(da.get(), db.get(), dc.get(),
                                                                stream::kScalar, problem.n);
  finish_launch();
  return check_close(da.download(), a, 0, 0, kernel);
}

}  // namespace

int main(int argc, char** argv) {
  return sassim::kernels::run_suite_program(argc, argv, {"stream_copy", "stream_triad"}, run);
}
