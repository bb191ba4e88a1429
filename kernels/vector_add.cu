// vectoradd: see vector_add.h.
#include <cstdint>

#include "kernels/cuda_host.cuh"
#include "kernels/values.h"
#include "kernels/vector_add.h"

extern "C" __global__ void vectoradd(const float* __restrict__ a, const float* __restrict__ b,
                                     float* __restrict__ c, uint32_t n) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

namespace {

bool run(std::string_view, sassim::kernels::ParamValues values) {
  using namespace sassim::kernels;
  const auto problem = vector_add::parse_problem(values);
  const Launch config = vector_add::launch(problem);
  std::vector<float> a(problem.n), b(problem.n), want(problem.n);
  fill_dyadic(a, 1);
  fill_dyadic(b, 2);
  vector_add::reference(a, b, want);
  DeviceBuffer<float> da(a), db(b), dc(problem.n);
  print_launch(config);
  vectoradd<<<to_dim3(config.grid), to_dim3(config.block)>>>(da.get(), db.get(), dc.get(),
                                                             problem.n);
  finish_launch();
  return check_close(dc.download(), want, 0, 0, "vectoradd");
}

}  // namespace

int main(int argc, char** argv) {
  return sassim::kernels::run_suite_program(argc, argv, {"vectoradd"}, run);
}
