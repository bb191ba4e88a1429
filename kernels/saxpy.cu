// saxpy: see saxpy.h.
#include <cstdint>

#include "kernels/cuda_host.cuh"
#include "kernels/saxpy.h"
#include "kernels/values.h"

extern "C" __global__ void saxpy(const float* __restrict__ x, float* __restrict__ y, float alpha,
                                 uint32_t n) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = __fmaf_rn(alpha, x[i], y[i]);
}

namespace {

bool run(std::string_view, sassim::kernels::ParamValues values) {
  using namespace sassim::kernels;
  const auto problem = saxpy::parse_problem(values);
  const Launch config = saxpy::launch(problem);
  std::vector<float> x(problem.n), y(problem.n);
  fill_dyadic(x, 1);
  fill_dyadic(y, 2);
  DeviceBuffer<float> dx(x), dy(y);
  saxpy::reference(x, y, saxpy::kAlpha);
  print_launch(config);
  ::saxpy<<<to_dim3(config.grid), to_dim3(config.block)>>>(dx.get(), dy.get(), saxpy::kAlpha,
                                                           problem.n);
  finish_launch();
  return check_close(dy.download(), y, 0, 0, "saxpy");
}

}  // namespace

int main(int argc, char** argv) {
  return sassim::kernels::run_suite_program(argc, argv, {"saxpy"}, run);
}
