// L1, L2 and DRAM bandwidth microbenchmarks: see ubench.h. Each warms its level up,
// then times a loop of independent loads whose values are summed into a sink.
#include "kernels/ubench/ptx.cuh"
#include "kernels/ubench/ubench_host.cuh"

using namespace sassim::kernels::ubench;

namespace {

// Unrolling of the timed loops: chosen so that the warp-instruction counts match the
// record (docs/UBENCH.md).
constexpr uint32_t kL1Bw32Unroll = 4;
constexpr uint32_t kL1BwLargeUnroll = 1;
constexpr uint32_t kL2BwUnroll = 4;

}  // namespace

// The record's program: four 32-bit loads 128 bytes apart per iteration, one asm
// statement with their adds; the window moves 512 bytes a step (warpSize, read at run
// time, x 4 floats) and wraps at 16384 floats (the buffer has 96 floats of slack).
extern "C" __global__ void ubench_l1_bw_32f(const float* __restrict__ array,
                                            unsigned long long* __restrict__ clocks,
                                            float* __restrict__ sink) {
  const uint32_t tid = threadIdx.x;
  const uint32_t uid = blockIdx.x * blockDim.x + tid;
  float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  for (uint32_t i = tid; i < kL1BwFloats; i += blockDim.x) load_add_ca(array + i, s0);
  asm volatile("bar.sync 0;" ::: "memory");
  const unsigned long long start = clock_now();
  for (uint32_t j = 0; j < kL1BwRepeats; ++j) {
    load4_add_ca(array + ((tid + j * warpSize * 4) % kL1BwFloats), s0, s1, s2, s3);
  }
  asm volatile("bar.sync 0;" ::: "memory");
  const unsigned long long stop = clock_now();
  record(clocks, uid, start, stop);
  sink[uid] = s0 + s1 + s2 + s3;
}

// The same with C additions after each asm load (nvcc unrolls it 4 times).
extern "C" __global__ void ubench_l1_bw_32f_c(const float* array, unsigned long long* clocks,
                                              float* sink) {
  const uint32_t tid = threadIdx.x;
  float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  for (uint32_t i = tid; i < kL1BwFloats; i += blockDim.x) s0 += load_ca(array + i);
  __syncthreads();
  const unsigned long long start = clock_now();
#pragma unroll kL1Bw32Unroll
  for (uint32_t j = 0; j < kL1BwRepeats; ++j) {
    const float* p = array + ((tid + j * 128) % kL1BwFloats);
    s0 += load_ca(p);
    s1 += load_ca(p + 32);
    s2 += load_ca(p + 64);
    s3 += load_ca(p + 96);
  }
  __syncthreads();
  record(clocks, tid, start, clock_now());
  sink[tid] = s0 + s1 + s2 + s3;
}

// The record's program: two 64-bit loads 256 bytes apart per iteration, one asm
// statement with their adds, over 8192 doubles (the window: warpSize x 2 doubles a step).
extern "C" __global__ void ubench_l1_bw_64f(const double* array, unsigned long long* clocks,
                                            double* sink) {
  const uint32_t tid = threadIdx.x;
  const uint32_t uid = blockIdx.x * blockDim.x + tid;
  double s0 = 0, s1 = 0;
  for (uint32_t i = tid; i < kL1BwDoubles; i += blockDim.x) load_add_ca(array + i, s0);
  asm volatile("bar.sync 0;" ::: "memory");
  const unsigned long long start = clock_now();
  for (uint32_t j = 0; j < kL1Bw64Repeats; ++j) {
    load2_add_ca(array + ((tid + j * warpSize * 2) % kL1BwDoubles), s0, s1);
  }
  asm volatile("bar.sync 0;" ::: "memory");
  const unsigned long long stop = clock_now();
  record(clocks, uid, start, stop);
  sink[uid] = s0 + s1;
}

// The same with C additions after each asm load.
extern "C" __global__ void ubench_l1_bw_64f_c(const double* array, unsigned long long* clocks,
                                              double* sink) {
  const uint32_t tid = threadIdx.x;
  double s0 = 0, s1 = 0;
  for (uint32_t i = tid; i < kL1BwDoubles; i += blockDim.x) s0 += load_ca(array + i);
  __syncthreads();
  const unsigned long long start = clock_now();
  for (uint32_t j = 0; j < kL1Bw64Repeats; ++j) {
    const double* p = array + ((tid + j * 64) % kL1BwDoubles);
    s0 += load_ca(p);
    s1 += load_ca(p + 32);
  }
  __syncthreads();
  record(clocks, tid, start, clock_now());
  sink[tid] = s0 + s1;
}

// One 128-bit load (4 floats) per thread and iteration.
extern "C" __global__ void ubench_l1_bw_128(const float* array, unsigned long long* clocks,
                                            float* sink) {
  const uint32_t tid = threadIdx.x;
  float4 s = {0, 0, 0, 0};
  for (uint32_t i = tid * 4; i < kL1BwFloats; i += blockDim.x * 4) {
    const float4 v = load_ca_v4(array + i);
    s.x += v.x, s.y += v.y, s.z += v.z, s.w += v.w;
  }
  __syncthreads();
  const unsigned long long start = clock_now();
  // The window moves warpSize x 4 floats a step, spelled as the measured kernel spells it
  // (nvcc then unrolls the loop 16 times, as the record's counts imply).
  for (uint32_t j = 0; j < kL1BwRepeats; ++j) {
    const float4 v = load_ca_v4(array + ((tid * 4 + j * warpSize * 4) % kL1BwFloats));
    s.x += v.x, s.y += v.y, s.z += v.z, s.w += v.w;
  }
  __syncthreads();
  record(clocks, tid, start, clock_now());
  sink[tid] = s.x + s.y + s.z + s.w;
}

// One 32-bit load per iteration, a warp-wide window moving 128 bytes a step.
extern "C" __global__ void ubench_l1_bw_32f_unroll(const float* array, unsigned long long* clocks,
                                                   float* sink) {
  const uint32_t tid = threadIdx.x;
  float s = 0;
  for (uint32_t i = tid; i < kL1BwFloats; i += blockDim.x) s += load_ca(array + i);
  __syncthreads();
  const unsigned long long start = clock_now();
  for (uint32_t j = 0; j < kL1BwRepeats; ++j) s += load_ca(array + ((tid + j * 32) % kL1BwFloats));
  __syncthreads();
  record(clocks, tid, start, clock_now());
  sink[tid] = s;
}

// The record's program: the same without the wrap, over 1024 + 4096 x 32 floats of which
// the first 32768 are warmed up; each step is an asm load and add whose address the
// compiler computes afresh (warpSize is read at run time), and nvcc unrolls the loop,
// issuing the loads of several steps before their adds.
extern "C" __global__ void ubench_l1_bw_32f_unroll_large(const float* array,
                                                         unsigned long long* clocks, float* sink) {
  const uint32_t tid = threadIdx.x;
  float s = 0;
  for (uint32_t i = tid; i < kL1BwLargeWarmFloats; i += blockDim.x) load_add_ca(array + i, s);
  asm volatile("bar.sync 0;" ::: "memory");
  const uint32_t start = clock32_now();
  for (uint32_t j = 0; j < kL1BwRepeats; ++j) load_add_ca(array + tid + j * warpSize, s);
  asm volatile("bar.sync 0;" ::: "memory");
  const uint32_t stop = clock32_now();
  record(clocks, tid, start, stop);
  sink[tid] = s;
}

// The same loop not unrolled, one load in flight per warp, over a buffer whose first
// 32768 floats are warmed up.
extern "C" __global__ void ubench_l1_bw_32f_unroll_large_serial(const float* array,
                                                                unsigned long long* clocks,
                                                                float* sink) {
  const uint32_t tid = threadIdx.x;
  float s = 0;
  for (uint32_t i = tid; i < kL1BwLargeWarmFloats; i += blockDim.x) s += load_ca(array + i);
  __syncthreads();
  const unsigned long long start = clock_now();
#pragma unroll kL1BwLargeUnroll
  for (uint32_t j = 0; j < kL1BwRepeats; ++j) s += load_ca(&array[tid + j * 32]);
  __syncthreads();
  record(clocks, tid, start, clock_now());
  sink[tid] = s;
}

// L2, the record's programs: every thread of the grid (two CTAs per SM) loads the array
// (threads + repeats x 32 elements) once, grid-stride, then `repeats` times a warp-wide
// window moving 128 bytes a step, each an asm ld.global.cg and add; 32f times with
// clock64, 64f with the 32-bit clock.
template <typename T, bool kClock64>
__device__ __forceinline__ void l2_bandwidth(const T* array, uint32_t elements, uint32_t repeats,
                                             unsigned long long* clocks, T* sink) {
  const uint32_t uid = blockIdx.x * blockDim.x + threadIdx.x;
  T s = 0;
  for (uint32_t i = uid; i < elements; i += blockDim.x * gridDim.x) load_add_cg(array + i, s);
  asm volatile("bar.sync 0;" ::: "memory");
  const unsigned long long start = kClock64 ? clock_now() : clock32_now();
  for (uint32_t i = 0; i < repeats; ++i) load_add_cg(array + i * warpSize + uid, s);
  asm volatile("bar.sync 0;" ::: "memory");
  const unsigned long long stop = kClock64 ? clock_now() : clock32_now();
  record(clocks, uid, start, stop);
  sink[uid] = s;
}

extern "C" __global__ void ubench_l2_bw_32f(const float* array, uint32_t elements, uint32_t repeats,
                                            unsigned long long* clocks, float* sink) {
  l2_bandwidth<float, true>(array, elements, repeats, clocks, sink);
}

extern "C" __global__ void ubench_l2_bw_64f(const double* array, uint32_t elements,
                                            uint32_t repeats, unsigned long long* clocks,
                                            double* sink) {
  l2_bandwidth<double, false>(array, elements, repeats, clocks, sink);
}

// L2, one CTA per SM: every thread of the grid touches the array once, then each loads
// a warp-wide window moving 128 bytes a step 2048 times, with ld.global.cg.
template <typename T>
__device__ __forceinline__ void l2_bandwidth_sm(const T* array, unsigned long long* clocks,
                                                T* sink) {
  const uint32_t uid = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t threads = blockDim.x * gridDim.x;
  T s = 0;
  for (uint32_t i = uid; i < threads + kL2BwRepeats * 32; i += threads) s += load_cg(array + i);
  __syncthreads();
  const unsigned long long start = clock_now();
#pragma unroll kL2BwUnroll
  for (uint32_t j = 0; j < kL2BwRepeats; ++j) s += load_cg(array + j * 32 + uid);
  __syncthreads();
  record(clocks, uid, start, clock_now());
  sink[uid] = s;
}

extern "C" __global__ void ubench_l2_bw_32f_sm(const float* array, unsigned long long* clocks,
                                               float* sink) {
  l2_bandwidth_sm(array, clocks, sink);
}

extern "C" __global__ void ubench_l2_bw_64f_sm(const double* array, unsigned long long* clocks,
                                               double* sink) {
  l2_bandwidth_sm(array, clocks, sink);
}

// DRAM: c = a + b + d + e + f with float4 loads and stores, grid-stride.
extern "C" __global__ void ubench_mem_bw(const float4* a, const float4* b, float4* c,
                                         const float4* d, const float4* e, const float4* f,
                                         uint32_t floats, unsigned long long* clocks) {
  const uint32_t uid = blockIdx.x * blockDim.x + threadIdx.x;
  __syncthreads();
  const unsigned long long start = clock_now();
  for (uint32_t i = uid; i < floats / 4; i += blockDim.x * gridDim.x) {
    const float4 va = a[i], vb = b[i], vd = d[i], ve = e[i], vf = f[i];
    c[i] = make_float4(va.x + vb.x + vd.x + ve.x + vf.x, va.y + vb.y + vd.y + ve.y + vf.y,
                       va.z + vb.z + vd.z + ve.z + vf.z, va.w + vb.w + vd.w + ve.w + vf.w);
  }
  __syncthreads();
  record(clocks, uid, start, clock_now());
}

int main(int argc, char** argv) {
  const KernelEntry kEntries[] = {
      {"ubench_l1_bw_32f", reinterpret_cast<const void*>(ubench_l1_bw_32f)},
      {"ubench_l1_bw_32f_c", reinterpret_cast<const void*>(ubench_l1_bw_32f_c)},
      {"ubench_l1_bw_64f", reinterpret_cast<const void*>(ubench_l1_bw_64f)},
      {"ubench_l1_bw_64f_c", reinterpret_cast<const void*>(ubench_l1_bw_64f_c)},
      {"ubench_l1_bw_128", reinterpret_cast<const void*>(ubench_l1_bw_128)},
      {"ubench_l1_bw_32f_unroll", reinterpret_cast<const void*>(ubench_l1_bw_32f_unroll)},
      {"ubench_l1_bw_32f_unroll_large",
       reinterpret_cast<const void*>(ubench_l1_bw_32f_unroll_large)},
      {"ubench_l1_bw_32f_unroll_large_serial",
       reinterpret_cast<const void*>(ubench_l1_bw_32f_unroll_large_serial)},
      {"ubench_l2_bw_32f", reinterpret_cast<const void*>(ubench_l2_bw_32f)},
      {"ubench_l2_bw_64f", reinterpret_cast<const void*>(ubench_l2_bw_64f)},
      {"ubench_l2_bw_32f_sm", reinterpret_cast<const void*>(ubench_l2_bw_32f_sm)},
      {"ubench_l2_bw_64f_sm", reinterpret_cast<const void*>(ubench_l2_bw_64f_sm)},
      {"ubench_mem_bw", reinterpret_cast<const void*>(ubench_mem_bw)},
  };
  return microbenchmark_main(argc, argv, kEntries);
}
