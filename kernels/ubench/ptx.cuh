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
// The same for the A100's sm_80 code.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 800
#define SASSIM_UBENCH_SM80 1
#else
#define SASSIM_UBENCH_SM80 0
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

// One asm statement that loads and adds, as the record's bandwidth programs write their
// loops: `sum += *address` with the given cache operator.
#define SASSIM_UBENCH_LOAD_ADD(name, type, ptx_type, cache, reg)         \
  __device__ __forceinline__ void name(const type* address, type& sum) { \
    asm volatile("{\n\t.reg ." ptx_type                                  \
                 " value;\n\t"                                           \
                 "ld.global." cache "." ptx_type                         \
                 " value, [%1];\n\t"                                     \
                 "add." ptx_type " %0, value, %0;\n\t}"                  \
                 : "+" reg(sum)                                          \
                 : "l"(address)                                          \
                 : "memory");                                            \
  }
SASSIM_UBENCH_LOAD_ADD(load_add_ca, float, "f32", "ca", "f")
SASSIM_UBENCH_LOAD_ADD(load_add_ca, double, "f64", "ca", "d")
SASSIM_UBENCH_LOAD_ADD(load_add_cg, float, "f32", "cg", "f")
SASSIM_UBENCH_LOAD_ADD(load_add_cg, double, "f64", "cg", "d")
#undef SASSIM_UBENCH_LOAD_ADD

// Two loads 256 bytes apart and their adds in one asm statement (l1_bw_64f).
__device__ __forceinline__ void load2_add_ca(const double* address, double& s0, double& s1) {
  asm volatile(
      "{\n\t.reg .f64 data<2>;\n\t"
      "ld.global.ca.f64 data0, [%2+0];\n\t"
      "ld.global.ca.f64 data1, [%2+256];\n\t"
      "add.f64 %0, data0, %0;\n\t"
      "add.f64 %1, data1, %1;\n\t}"
      : "+d"(s0), "+d"(s1)
      : "l"(address)
      : "memory");
}

// Four loads 128 bytes apart and their four adds in one asm statement (l1_bw_32f).
__device__ __forceinline__ void load4_add_ca(const float* address, float& s0, float& s1, float& s2,
                                             float& s3) {
  asm volatile(
      "{\n\t.reg .f32 data<4>;\n\t"
      "ld.global.ca.f32 data0, [%4+0];\n\t"
      "ld.global.ca.f32 data1, [%4+128];\n\t"
      "ld.global.ca.f32 data2, [%4+256];\n\t"
      "ld.global.ca.f32 data3, [%4+384];\n\t"
      "add.f32 %0, data0, %0;\n\t"
      "add.f32 %1, data1, %1;\n\t"
      "add.f32 %2, data2, %2;\n\t"
      "add.f32 %3, data3, %3;\n\t}"
      : "+f"(s0), "+f"(s1), "+f"(s2), "+f"(s3)
      : "l"(address)
      : "memory");
}

__device__ __forceinline__ float4 load_ca_v4(const float* address) {
  float4 v;
  asm volatile("ld.global.ca.v4.f32 {%0, %1, %2, %3}, [%4];"
               : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
               : "l"(address)
               : "memory");
  return v;
}

// The 32-bit clock (%clock), as the record's latency programs read it.
__device__ __forceinline__ uint32_t clock32_now() {
  uint32_t t;
  asm volatile("mov.u32 %0, %%clock;" : "=r"(t)::"memory");
  return t;
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
