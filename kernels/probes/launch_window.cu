// Measures what Nsight Compute's cycle window holds besides a kernel's own work: run each
// launch below under `ncu --metrics gpc__cycles_elapsed.avg,...` and compare with the
// cycles the kernel times itself (clock64 from its first to its last instruction).
//   launch_window            every launch once, in this order
// Launches: empty kernels of 1 thread, 1 warp per SM, 1,024 threads per SM, and 4 CTAs per
// SM; then one thread spinning for 1,000, 10,000 and 100,000 of its own clocks.
// scripts/device-ubench.sh runs it; docs/UBENCH.md gives the figures.
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

#define CHECK(call)                                                                  \
  do {                                                                               \
    cudaError_t e = (call);                                                          \
    if (e != cudaSuccess) {                                                          \
      std::fprintf(stderr, "launch_window: %s: %s\n", #call, cudaGetErrorString(e)); \
      std::exit(1);                                                                  \
    }                                                                                \
  } while (0)

extern "C" __global__ void probe_empty() {}

extern "C" __global__ void probe_spin(long long cycles, long long* timed) {
  const long long start = clock64();
  long long now = start;
  while (now - start < cycles) now = clock64();
  if (threadIdx.x == 0 && blockIdx.x == 0) *timed = now - start;
}

int main() {
  int device = 0, sms = 0;
  CHECK(cudaGetDevice(&device));
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  long long* timed = nullptr;
  CHECK(cudaMalloc(&timed, sizeof(long long)));

  const struct {
    const char* name;
    int blocks, threads;
  } empties[] = {{"empty 1x1", 1, 1},
                 {"empty SMSx32", sms, 32},
                 {"empty SMSx1024", sms, 1024},
                 {"empty 4SMSx256", 4 * sms, 256}};
  for (const auto& e : empties) {
    probe_empty<<<e.blocks, e.threads>>>();
    CHECK(cudaDeviceSynchronize());
    std::printf("launch_window: %s (%d CTAs of %d threads)\n", e.name, e.blocks, e.threads);
  }
  for (long long cycles : {1000LL, 10000LL, 100000LL}) {
    probe_spin<<<1, 1>>>(cycles, timed);
    CHECK(cudaDeviceSynchronize());
    long long got = 0;
    CHECK(cudaMemcpy(&got, timed, sizeof got, cudaMemcpyDeviceToHost));
    std::printf("launch_window: spin %lld cycles, timed %lld\n", cycles, got);
  }
  CHECK(cudaFree(timed));
  return 0;
}
