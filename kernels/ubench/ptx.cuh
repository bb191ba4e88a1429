// Global loads with an explicit PTX cache operator (.ca: cache in L1 and L2; .cg: L2
// only; .cv: volatile, fetch again), as the microbenchmarks need them. `volatile` keeps
// every load in place: the compiler neither merges nor hoists them.
#pragma once

#include <cstdint>

// The sm_70 listings are compiled from PTX for compute_75, which no other target of the
// project uses (scripts/ubench-sm70.sh): where the QV100 record implies other loop
// unrolling than the A100's and H100's, a kernel chooses it under this condition.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 750
#define SASSIM_UBENCH_SM70 1
#else
#define SASSIM_UBENCH_SM70 0
#endif

namespace sassim::kernels::ubench {

#define SASSIM_UBENCH_LOAD(name, type, ptx, reg)                               \
  __device__ __forceinline__ type name(const type* address) {                  \
    type value;                                                                \
    asm volatile(ptx " %0, [%1];" : "=" reg(value) : "l"(address) : "memory"); \
    return value;                                                              \
  }
SASSIM_UBENCH_LOAD(load_ca, float, "ld.global.ca.f32", "f")
SASSIM_UBENCH_LOAD(load_ca, double, "ld.global.ca.f64", "d")
SASSIM_UBENCH_LOAD(load_ca, uint64_t, "ld.global.ca.u64", "l")
SASSIM_UBENCH_LOAD(load_cg, float, "ld.global.cg.f32", "f")
SASSIM_UBENCH_LOAD(load_cg, double, "ld.global.cg.f64", "d")
SASSIM_UBENCH_LOAD(load_cg, uint64_t, "ld.global.cg.u64", "l")
SASSIM_UBENCH_LOAD(load_cv, uint64_t, "ld.global.cv.u64", "l")
#undef SASSIM_UBENCH_LOAD

__device__ __forceinline__ float4 load_ca_v4(const float* address) {
  float4 v;
  asm volatile("ld.global.ca.v4.f32 {%0, %1, %2, %3}, [%4];"
               : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
               : "l"(address)
               : "memory");
  return v;
}

// clock64, ordered with the loads around it.
__device__ __forceinline__ unsigned long long clock_now() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory");
  return t;
}

__device__ __forceinline__ void record(unsigned long long* clocks, uint32_t thread,
                                       unsigned long long start, unsigned long long stop) {
  clocks[2 * thread] = start;
  clocks[2 * thread + 1] = stop;
}

}  // namespace sassim::kernels::ubench
