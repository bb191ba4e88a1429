// Shared-memory and integer microbenchmarks: see ubench.h.
#include "kernels/ubench/ptx.cuh"
#include "kernels/ubench/ubench_host.cuh"

using namespace sassim::kernels::ubench;

namespace {

// Unrolling: chosen so that the warp-instruction counts match the record (docs/UBENCH.md).
constexpr uint32_t kL1SharedWarmUnroll = 2;
#if SASSIM_UBENCH_SM70 || SASSIM_UBENCH_SM80
constexpr uint32_t kL1SharedUnroll = 6;  // QV100, A100: their code spends more per step
#else
constexpr uint32_t kL1SharedUnroll = 1;
#endif
constexpr uint32_t kL1SharedRingWarmUnroll = 2;
constexpr uint32_t kL1SharedRingUnroll = 1;

}  // namespace

// Shared-memory latency: the grid's threads link a 32 KiB ring of 64-bit indices
// (i -> (i + stride) mod entries, the stride a launch argument: 1), then thread 0 chases
// it from entry 0.
extern "C" __global__ void ubench_shared_lat(uint32_t stride, unsigned long long* clocks,
                                             uint64_t* sink) {
  __shared__ uint64_t ring[kSharedLatEntries];
  const uint32_t tid = threadIdx.x;
  const uint32_t uid = blockIdx.x * blockDim.x + tid;
  for (uint32_t i = uid; i < kSharedLatEntries - stride; i += blockDim.x * gridDim.x) {
    ring[i] = (i + stride) % kSharedLatEntries;
  }
  if (uid != 0) return;
  // The entry's byte offset is scaled by the stride at run time, so that every
  // architecture computes each address with one instruction before its load, as the
  // measured binaries do (sm_80 code would otherwise fold the scaling into the load).
  const uint32_t entry_bytes = stride * static_cast<uint32_t>(sizeof(uint64_t));
  const char* base = reinterpret_cast<const char*>(ring);
  uint64_t p = 0;
  const unsigned long long start = clock_now();
#pragma unroll 64
  for (uint32_t i = 0; i < kSharedLatSteps; ++i) {
    p = *reinterpret_cast<const uint64_t*>(base + p * entry_bytes);
  }
  record(clocks, tid, start, clock_now());
  sink[tid] = p;
}

// Shared-memory bandwidth: 1024 threads chase a 48 KiB ring of indices (i -> i + 1024),
// each from its own entry.
extern "C" __global__ void ubench_shared_bw(unsigned long long* clocks, uint32_t* sink) {
  __shared__ uint32_t ring[kSharedBwWords];
  const uint32_t tid = threadIdx.x;
  for (uint32_t i = tid; i < kSharedBwWords; i += blockDim.x) {
    ring[i] = (i + blockDim.x) % kSharedBwWords;
  }
  __syncthreads();
  const unsigned long long start = clock_now();
  uint32_t p = tid;
  for (uint32_t i = 0; i < kSharedBwSteps; ++i) p = ring[p];
  __syncthreads();
  record(clocks, tid, start, clock_now());
  sink[tid] = p;
}

// L1 and shared memory together, the record's program: a shared index ring (entry i ->
// (i + stride + 7) mod size, the stride a launch value: 1024) and a global one, warmed
// up 16384 steps, then one load from each per iteration. The host copies only the
// first 1024 entries of the global ring (ubench.h), so the chases fall into the zeros
// after two steps and most of their loads read one sector.
extern "C" __global__ void ubench_l1_shared_bw(const uint32_t* l1_ring, uint32_t stride,
                                               unsigned long long* clocks, uint32_t* sink) {
  __shared__ uint32_t ring[kL1SharedWords];
  const uint32_t uid = blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t ps = uid, pl = uid;
  for (uint32_t i = uid; i < kL1SharedWords; i += blockDim.x * gridDim.x) {
    ring[i] = (i + stride + 7) % kL1SharedWords;
  }
#pragma unroll kL1SharedWarmUnroll
  for (uint32_t i = 0; i < kL1SharedRingWords; ++i) pl = l1_ring[pl];
  asm volatile("bar.sync 0;" ::: "memory");
  const uint32_t start = clock32_now();
#pragma unroll kL1SharedUnroll
  for (uint32_t i = 0; i < kL1SharedSteps; ++i) {
    ps = ring[ps];
    pl = l1_ring[pl];
  }
  asm volatile("bar.sync 0;" ::: "memory");
  const uint32_t stop = clock32_now();
  record(clocks, uid, start, stop);
  sink[uid] = ps + pl;
}

// The same with the whole global ring copied (entry i -> i + 1025 mod 16384), so that
// every thread chases its own entries.
extern "C" __global__ void ubench_l1_shared_bw_ring(const uint32_t* l1_ring,
                                                    unsigned long long* clocks, uint32_t* sink) {
  __shared__ uint32_t ring[kL1SharedWords];
  const uint32_t tid = threadIdx.x;
  for (uint32_t i = tid; i < kL1SharedWords; i += blockDim.x) {
    ring[i] = (i + blockDim.x + 7) % kL1SharedWords;
  }
  uint32_t pl = tid;
#pragma unroll kL1SharedRingWarmUnroll
  for (uint32_t i = 0; i < kL1SharedRingWords; ++i) pl = l1_ring[pl];
  __syncthreads();
  const unsigned long long start = clock_now();
  uint32_t ps = tid;
#pragma unroll kL1SharedRingUnroll
  for (uint32_t i = 0; i < kL1SharedSteps; ++i) {
    ps = ring[ps];
    pl = l1_ring[pl];
  }
  __syncthreads();
  record(clocks, tid, start, clock_now());
  sink[tid] = ps + pl;
}

// Bank conflicts: out = in^T (width x height) through a 32 x 32 shared tile whose rows
// are kPitch floats apart: 32 makes the column reads 32-way bank conflicts, 33 none. The
// tile pitch is a compile-time constant and there is one kernel per tile, as in the
// measured program (Nsight Compute's sharedBankConflicts sample). Untimed (the record
// measures the whole kernel).
template <int kPitch>
__device__ __forceinline__ void transpose_through_tile(float* out, const float* in, int width,
                                                       int height) {
  __shared__ float tile_data[kBankTile * kPitch];
  const int tile = static_cast<int>(kBankTile), rows = static_cast<int>(kBankRows);
  const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
  const int in_index =
      static_cast<int>(blockIdx.x) * tile + tx + (static_cast<int>(blockIdx.y) * tile + ty) * width;
  const int out_index = static_cast<int>(blockIdx.y) * tile + tx +
                        (static_cast<int>(blockIdx.x) * tile + ty) * height;
  for (int j = 0; j < tile; j += rows) tile_data[(ty + j) * kPitch + tx] = in[in_index + j * width];
  __syncthreads();
  for (int j = 0; j < tile; j += rows) {
    out[out_index + j * height] = tile_data[tx * kPitch + ty + j];
  }
}

extern "C" __global__ void ubench_shared_bank_conflicts(float* out, const float* in, int width,
                                                        int height) {
  transpose_through_tile<kBankTile>(out, in, width, height);
}

extern "C" __global__ void ubench_shared_bank_conflicts_padded(float* out, const float* in,
                                                               int width, int height) {
  transpose_through_tile<kBankTile + 1>(out, in, width, height);
}

// Integer multiply-add throughput: 4 dependent mad.lo.s32 per iteration.
extern "C" __global__ void ubench_max_iops_int32(uint32_t a, uint32_t b, unsigned long long* clocks,
                                                 uint32_t* sink) {
  const uint32_t tid = threadIdx.x;
  uint32_t x = tid;
  __syncthreads();
  const unsigned long long start = clock_now();
  for (uint32_t i = 0; i < kIopsSteps; ++i) {
    asm volatile(
        "mad.lo.s32 %0, %0, %1, %2;\n\t"
        "mad.lo.s32 %0, %0, %1, %2;\n\t"
        "mad.lo.s32 %0, %0, %1, %2;\n\t"
        "mad.lo.s32 %0, %0, %1, %2;"
        : "+r"(x)
        : "r"(a), "r"(b));
  }
  __syncthreads();
  record(clocks, tid, start, clock_now());
  sink[tid] = x;
}

int main(int argc, char** argv) {
  const KernelEntry kEntries[] = {
      {"ubench_shared_lat", reinterpret_cast<const void*>(ubench_shared_lat)},
      {"ubench_shared_bw", reinterpret_cast<const void*>(ubench_shared_bw)},
      {"ubench_l1_shared_bw", reinterpret_cast<const void*>(ubench_l1_shared_bw)},
      {"ubench_l1_shared_bw_ring", reinterpret_cast<const void*>(ubench_l1_shared_bw_ring)},
      {"ubench_shared_bank_conflicts", reinterpret_cast<const void*>(ubench_shared_bank_conflicts)},
      {"ubench_shared_bank_conflicts_padded",
       reinterpret_cast<const void*>(ubench_shared_bank_conflicts_padded)},
      {"ubench_max_iops_int32", reinterpret_cast<const void*>(ubench_max_iops_int32)},
  };
  return microbenchmark_main(argc, argv, kEntries);
}
