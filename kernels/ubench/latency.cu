// Pointer-chase latency microbenchmarks: see ubench.h. Each ring holds the addresses of
// its next entries and is built by the kernel itself (the addresses are the device's).
#include "kernels/ubench/ptx.cuh"
#include "kernels/ubench/ubench_host.cuh"

using namespace sassim::kernels::ubench;

namespace {

// Unrolling (docs/UBENCH.md: chosen so that the warp-instruction counts match the record).
constexpr uint32_t kL1LatRingUnroll = 15;
constexpr uint32_t kL1LatCtaRingUnroll = 14;
constexpr uint32_t kL1LatUnroll = 4;
#if SASSIM_UBENCH_SM70
constexpr uint32_t kL2LatUnroll = 6;
#else
constexpr uint32_t kL2LatUnroll = 4;
#endif
constexpr uint32_t kMemLatUnroll = 16;
// mem_lat's chase: nvcc's own choice (16) meets the A100 and H100 records; 4 the QV100's.
#if SASSIM_UBENCH_SM70
constexpr uint32_t kMemLatChaseUnroll = 4;
#else
constexpr uint32_t kMemLatChaseUnroll = 16;
#endif

// Thread 0 links ring[i] to ring[i + 1], the last entry back to the first. The addresses
// are offset by the lane number (0 here), which keeps them in per-thread registers.
template <uint32_t kUnroll>
__device__ __forceinline__ void build_ring(uint64_t* ring, uint32_t entries) {
  uint32_t lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  ring += lane;
  uint64_t next = reinterpret_cast<uint64_t>(ring + 1);
#pragma unroll kUnroll
  for (uint32_t i = 0; i + 1 < entries; ++i, next += sizeof(uint64_t)) ring[i] = next;
  ring[entries - 1] = reinterpret_cast<uint64_t>(ring);
}

// The 32 lanes of a warp link ring[i] to ring[i + 1] (entries: a power of two).
__device__ __forceinline__ void link_ring(uint64_t* ring, uint32_t entries, uint32_t lane) {
  for (uint32_t i = lane; i < entries; i += 32) {
    ring[i] = reinterpret_cast<uint64_t>(ring + ((i + 1) & (entries - 1)));
  }
}

}  // namespace

// L1 hits, the record's program: one thread builds a 64 KiB ring (8,191 stores), then
// chases it 256 steps with ld.global.ca, timed with the 32-bit clock.
extern "C" __global__ void ubench_l1_lat(uint64_t* ring, unsigned long long* clocks,
                                         uint64_t* sink) {
  const uint32_t tid = threadIdx.x;
  if (tid == 0) build_ring<kL1LatRingUnroll>(ring, kL1LatEntries);
  if (tid >= kL1LatThreads) return;
  uint64_t p = load_ca(ring + tid);
  asm volatile("bar.sync 0;" ::: "memory");
  const uint32_t start = clock32_now();
  for (uint32_t i = 0; i < kL1LatSteps; ++i) p = load_ca(reinterpret_cast<const uint64_t*>(p));
  const uint32_t stop = clock32_now();
  record(clocks, tid, start, stop);
  sink[tid] = p;
}

// L1 hits, every thread of a CTA: thread 0 builds a 32 KiB ring, then all 1,024 threads
// chase it from their own entries with ld.global.ca.
extern "C" __global__ void ubench_l1_lat_cta(uint64_t* ring, unsigned long long* clocks,
                                             uint64_t* sink) {
  const uint32_t tid = threadIdx.x;
  if (tid == 0) build_ring<kL1LatCtaRingUnroll>(ring, kL1LatCtaEntries);
  __syncthreads();
  uint64_t p = load_ca(ring + tid);
  const unsigned long long start = clock_now();
#pragma unroll kL1LatUnroll
  for (uint32_t i = 0; i < kL1LatSteps; ++i) p = load_ca(reinterpret_cast<const uint64_t*>(p));
  const unsigned long long stop = clock_now();
  record(clocks, tid, start, stop);
  sink[tid] = p;
}

// L2 hits: one warp links the ring, lane 0 chases it with ld.global.cg (L1 bypassed),
// 32768 dependent loads.
extern "C" __global__ void ubench_l2_lat(uint64_t* ring, unsigned long long* clocks,
                                         uint64_t* sink) {
  link_ring(ring, kL2LatEntries, threadIdx.x);
  __syncwarp();
  if (threadIdx.x != 0) return;
  uint64_t p = load_cg(ring);
  const unsigned long long start = clock_now();
#pragma unroll kL2LatUnroll
  for (uint32_t i = 0; i < kL2LatSteps; ++i) p = load_cg(reinterpret_cast<const uint64_t*>(p));
  const unsigned long long stop = clock_now();
  record(clocks, 0, start, stop);
  sink[0] = p;
}

// DRAM, the record's program: one warp links a ring of twice the L2 (entry i -> i + 4),
// the last four entries to the ring's first bytes; then threads 0-3 (one 32-byte sector)
// chase it with ld.global.cv, 8,191 steps each after one untimed load.
extern "C" __global__ void ubench_mem_lat(uint64_t* ring, uint32_t entries,
                                          unsigned long long* clocks, uint64_t* sink) {
  const uint32_t tid = threadIdx.x;
  const uint32_t uid = blockIdx.x * blockDim.x + tid;
  for (uint32_t i = uid; i < entries - kMemLatChasers; i += blockDim.x * gridDim.x) {
    ring[i] = reinterpret_cast<uint64_t>(ring + i + kMemLatChasers);
  }
  if (uid >= kMemLatChasers) return;
  // The record's program adds the thread number in bytes here; the chase never gets there.
  ring[entries - kMemLatChasers + tid] = reinterpret_cast<uint64_t>(ring) + tid;
  uint64_t p = load_cv(ring + tid);
  asm volatile("bar.sync 0;" ::: "memory");
  const uint32_t start = clock32_now();
#pragma unroll kMemLatChaseUnroll
  for (uint32_t i = tid; i < kMemLatLoads - kMemLatChasers; i += kMemLatChasers) {
    p = load_cv(reinterpret_cast<const uint64_t*>(p));
  }
  const uint32_t stop = clock32_now();
  record(clocks, uid, start, stop);
  sink[uid] = p;
}

// DRAM, the ring linked by every thread of the grid (entry i -> i + 4); then threads 0-3
// of the last CTA chase it with ld.global.cv, 8192 steps each. The last CTA chases so
// that CTAs run one after another see a whole ring.
extern "C" __global__ void ubench_mem_lat_cta(uint64_t* ring, uint32_t entries,
                                              unsigned long long* clocks, uint64_t* sink) {
  const uint32_t tid = threadIdx.x;
  const uint32_t uid = blockIdx.x * blockDim.x + tid;
#pragma unroll 1
  for (uint32_t i = uid; i < entries - kMemLatChasers; i += blockDim.x * gridDim.x) {
    ring[i] = reinterpret_cast<uint64_t>(ring + i + kMemLatChasers);
  }
  __syncthreads();
  if (blockIdx.x != gridDim.x - 1 || tid >= kMemLatChasers) return;
  ring[entries - kMemLatChasers + tid] = reinterpret_cast<uint64_t>(ring + tid);
  uint64_t p = load_cv(ring + tid);
  const unsigned long long start = clock_now();
#pragma unroll kMemLatUnroll
  for (uint32_t i = tid; i < kMemLatLoads - kMemLatChasers; i += kMemLatChasers) {
    p = load_cv(reinterpret_cast<const uint64_t*>(p));
  }
  const unsigned long long stop = clock_now();
  record(clocks, uid, start, stop);
  sink[uid] = p;
}

int main(int argc, char** argv) {
  const KernelEntry kEntries[] = {
      {"ubench_l1_lat", reinterpret_cast<const void*>(ubench_l1_lat)},
      {"ubench_l1_lat_cta", reinterpret_cast<const void*>(ubench_l1_lat_cta)},
      {"ubench_l2_lat", reinterpret_cast<const void*>(ubench_l2_lat)},
      {"ubench_mem_lat", reinterpret_cast<const void*>(ubench_mem_lat)},
      {"ubench_mem_lat_cta", reinterpret_cast<const void*>(ubench_mem_lat_cta)},
  };
  return microbenchmark_main(argc, argv, kEntries);
}
