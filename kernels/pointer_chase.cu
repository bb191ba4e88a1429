// chase_global and chase_shared: see pointer_chase.h.
#include <cstdint>

#include "kernels/cuda_host.cuh"
#include "kernels/pointer_chase.h"

// The chain is not __restrict__: a plain (L1-cached) LDG, not the read-only path.
extern "C" __global__ void chase_global(const uint32_t* chain, uint32_t warmup_steps,
                                        uint32_t steps, uint32_t* __restrict__ out_index,
                                        unsigned long long* __restrict__ out_cycles) {
  uint32_t p = 0;
  for (uint32_t i = 0; i < warmup_steps; ++i) p = chain[p];
  const long long start = clock64();
  for (uint32_t i = 0; i < steps; ++i) p = chain[p];
  // The store of p waits for the last load; the clock is read after it is issued.
  *out_index = p;
  const long long stop = clock64();
  *out_cycles = static_cast<unsigned long long>(stop - start);
}

extern "C" __global__ void chase_shared(const uint32_t* __restrict__ chain, uint32_t elements,
                                        uint32_t steps, uint32_t* __restrict__ out_index,
                                        unsigned long long* __restrict__ out_cycles) {
  extern __shared__ uint32_t shared_chain[];
  for (uint32_t i = threadIdx.x; i < elements; i += blockDim.x) shared_chain[i] = chain[i];
  __syncthreads();
  if (threadIdx.x != 0) return;
  uint32_t p = 0;
  const long long start = clock64();
  for (uint32_t i = 0; i < steps; ++i) p = shared_chain[p];
  *out_index = p;
  const long long stop = clock64();
  *out_cycles = static_cast<unsigned long long>(stop - start);
}

namespace {

bool run(std::string_view kernel, sassim::kernels::ParamValues values) {
  using namespace sassim::kernels;
  const auto problem = pointer_chase::parse_problem(kernel, values);
  const Launch config = pointer_chase::launch(kernel, problem);
  const std::vector<uint32_t> chain = pointer_chase::build_chain(problem);
  DeviceBuffer<uint32_t> dchain(chain), dindex(1);
  DeviceBuffer<unsigned long long> dcycles(1);
  print_launch(config);
  if (kernel == pointer_chase::kSharedKernel) {
    chase_shared<<<to_dim3(config.grid), to_dim3(config.block), config.dynamic_shared_bytes>>>(
        dchain.get(), problem.elements(), problem.steps, dindex.get(), dcycles.get());
  } else {
    chase_global<<<to_dim3(config.grid), to_dim3(config.block)>>>(
        dchain.get(), problem.warmup_steps, problem.steps, dindex.get(), dcycles.get());
  }
  finish_launch();
  const uint32_t index = dindex.download()[0];
  const unsigned long long cycles = dcycles.download()[0];
  const uint32_t want =
      pointer_chase::final_index(chain, uint64_t{problem.warmup_steps} + problem.steps);
  std::printf("%.*s: footprint %u B, stride %u B: %.1f cycles per load (%llu cycles, %u steps)\n",
              static_cast<int>(kernel.size()), kernel.data(), problem.footprint_bytes,
              problem.stride_bytes, static_cast<double>(cycles) / problem.steps, cycles,
              problem.steps);
  if (index != want)
    std::printf("%.*s: ended on index %u, expected %u\n", static_cast<int>(kernel.size()),
                kernel.data(), index, want);
  return index == want;
}

}  // namespace

int main(int argc, char** argv) {
  return sassim::kernels::run_suite_program(argc, argv, {"chase_global", "chase_shared"}, run);
}
