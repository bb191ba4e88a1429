// Inline-PTX wrappers for the sm_90a path: mbarriers (SYNCS), TMA tensor loads
// (cp.async.bulk.tensor -> UTMALDG) and warpgroup MMA (wgmma -> HGMMA / QGMMA, WARPGROUP.*).
#pragma once

#include <cuda.h>

#include <cstdint>

namespace sassim::kernels::sm90a {

__device__ __forceinline__ uint32_t shared_address(const void* pointer) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(pointer));
}

__device__ __forceinline__ void mbarrier_init(uint32_t bar, uint32_t arrivals) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar), "r"(arrivals));
}
// Makes initialised barriers visible to the async (TMA) proxy.
__device__ __forceinline__ void fence_barrier_init() {
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}
// Arrives once and tells the barrier how many bytes the transactions will bring.
__device__ __forceinline__ void mbarrier_arrive_expect_tx(uint32_t bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar), "r"(bytes)
               : "memory");
}
// Arrives once (no transaction bytes): a consumer's "this stage is free again".
__device__ __forceinline__ void mbarrier_arrive(uint32_t bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(bar) : "memory");
}
// Spins until the barrier's phase with parity `phase` has completed.
__device__ __forceinline__ void mbarrier_wait(uint32_t bar, uint32_t phase) {
  uint32_t done = 0;
  do {
    asm volatile(
        "{\n"
        ".reg .pred p;\n"
        "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
        "selp.u32 %0, 1, 0, p;\n"
        "}\n"
        : "=r"(done)
        : "r"(bar), "r"(phase)
        : "memory");
  } while (done == 0);
}

// TMA: the box of `map` at (inner, outer) into shared memory at `dst`; completion is
// counted in bytes on `bar`.
__device__ __forceinline__ void tma_load_2d(uint32_t dst, const CUtensorMap* map, uint32_t bar,
                                            int32_t inner, int32_t outer) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%3, "
      "%4}], [%2];\n" ::"r"(dst),
      "l"(reinterpret_cast<uint64_t>(map)), "r"(bar), "r"(inner), "r"(outer)
      : "memory");
}

// Thread block clusters (sm_90): this CTA's rank in its cluster, the address of the
// same shared location in the CTA of rank `rank`, an arrive on an mbarrier of any CTA of
// the cluster, and the cluster-wide barrier (every thread of every CTA).
__device__ __forceinline__ uint32_t cluster_rank() {
  uint32_t rank;
  asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(rank));
  return rank;
}
__device__ __forceinline__ uint32_t cluster_address(uint32_t shared, uint32_t rank) {
  uint32_t remote;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;\n" : "=r"(remote) : "r"(shared), "r"(rank));
  return remote;
}
__device__ __forceinline__ void mbarrier_arrive_cluster(uint32_t cluster_bar) {
  asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];\n" ::"r"(cluster_bar)
               : "memory");
}
__device__ __forceinline__ void cluster_sync() {
  asm volatile(
      "barrier.cluster.arrive.release.aligned;\n"
      "barrier.cluster.wait.acquire.aligned;\n" ::
          : "memory");
}

// TMA multicast: the box into the same shared offset `dst` of every CTA of the cluster in
// `ranks` (bit r: rank r), its bytes completing on the mbarrier at offset `bar` of each.
__device__ __forceinline__ void tma_load_2d_multicast(uint32_t dst, const CUtensorMap* map,
                                                      uint32_t bar, int32_t inner, int32_t outer,
                                                      uint16_t ranks) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::"
      "cluster [%0], [%1, {%3, %4}], [%2], %5;\n" ::"r"(dst),
      "l"(reinterpret_cast<uint64_t>(map)), "r"(bar), "r"(inner), "r"(outer), "h"(ranks)
      : "memory");
}

// Shared-memory matrix descriptor of a K-major tile with 128-byte rows in the 128-byte
// swizzle TMA writes: start address, stride between 8-row groups 1024 bytes, leading
// offset unused (1), layout 1 = SWIZZLE_128B. The tile must start 1024-byte aligned.
__device__ __forceinline__ uint64_t smem_descriptor_sw128(uint32_t address) {
  return (uint64_t{(address & 0x3ffffU) >> 4}) | (uint64_t{1} << 16) | (uint64_t{1024 >> 4} << 32) |
         (uint64_t{1} << 62);
}

__device__ __forceinline__ void wgmma_fence() {
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
}
__device__ __forceinline__ void wgmma_commit() {
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}
template <int kPending>
__device__ __forceinline__ void wgmma_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(kPending) : "memory");
}

// The accumulator operands of a wgmma with FP32 accumulators: 64 registers for N = 128,
// 128 for N = 256, as the instruction text names them ("{%0, ..., %63}") and as the asm
// statement binds them ("+f" of d[0] ... d[63], or d[127]).
#define SASSIM_WGMMA_R0_63                                                                \
  "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, " \
  "%19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, " \
  "%36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, " \
  "%53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
#define SASSIM_WGMMA_R64_127                                                              \
  "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, " \
  "%81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, " \
  "%98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, "    \
  "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, "  \
  "%126, %127"
#define SASSIM_WGMMA_TEXT64 "{" SASSIM_WGMMA_R0_63 "}"
#define SASSIM_WGMMA_TEXT128 "{" SASSIM_WGMMA_R0_63 ", " SASSIM_WGMMA_R64_127 "}"
#define SASSIM_WGMMA_F8(d, i)                                                                 \
  "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3]), "+f"(d[i + 4]), "+f"(d[i + 5]), \
      "+f"(d[i + 6]), "+f"(d[i + 7])
#define SASSIM_WGMMA_F64(d, i)                                                            \
  SASSIM_WGMMA_F8(d, i), SASSIM_WGMMA_F8(d, i + 8), SASSIM_WGMMA_F8(d, i + 16),           \
      SASSIM_WGMMA_F8(d, i + 24), SASSIM_WGMMA_F8(d, i + 32), SASSIM_WGMMA_F8(d, i + 40), \
      SASSIM_WGMMA_F8(d, i + 48), SASSIM_WGMMA_F8(d, i + 56)
#define SASSIM_WGMMA_D64(d) SASSIM_WGMMA_F64(d, 0)
#define SASSIM_WGMMA_D128(d) SASSIM_WGMMA_F64(d, 0), SASSIM_WGMMA_F64(d, 64)

// d (64 x 128 FP32, this warpgroup's accumulators) += A (64 x 16) * B (16 x 128), both
// BF16 in shared memory, addressed by descriptors.
__device__ __forceinline__ void wgmma_m64n128k16(float (&d)[64], uint64_t desc_a, uint64_t desc_b) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 " SASSIM_WGMMA_TEXT64
      ", %64, %65, p, 1, 1, 0, 0;\n}\n"
      : SASSIM_WGMMA_D64(d)
      : "l"(desc_a), "l"(desc_b), "n"(1));
}

// d (64 x 128 FP32, this warpgroup's accumulators) += A (64 x 32) * B (32 x 128), both
// E4M3 in shared memory (K-major, the only layout of 8-bit wgmma), addressed by
// descriptors. 8-bit types have no transpose operands: scale-d, imm-scale-a, imm-scale-b.
__device__ __forceinline__ void wgmma_m64n128k32_e4m3(float (&d)[64], uint64_t desc_a,
                                                      uint64_t desc_b) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3 " SASSIM_WGMMA_TEXT64
      ", %64, %65, p, 1, 1;\n}\n"
      : SASSIM_WGMMA_D64(d)
      : "l"(desc_a), "l"(desc_b), "n"(1));
}

// d (64 x 256 FP32, this warpgroup's accumulators) += A (64 x 32) * B (32 x 256), both
// E4M3 in shared memory (K-major), addressed by descriptors: the widest 8-bit wgmma.
__device__ __forceinline__ void wgmma_m64n256k32_e4m3(float (&d)[128], uint64_t desc_a,
                                                      uint64_t desc_b) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n256k32.f32.e4m3.e4m3 " SASSIM_WGMMA_TEXT128
      ", %128, %129, p, 1, 1;\n}\n"
      : SASSIM_WGMMA_D128(d)
      : "l"(desc_a), "l"(desc_b), "n"(1));
}

// d (64 x 256 FP32, this warpgroup's accumulators) += A (64 x 16) * B (16 x 256), both
// BF16 in shared memory (K-major: no transpose), addressed by descriptors.
__device__ __forceinline__ void wgmma_m64n256k16_bf16(float (&d)[128], uint64_t desc_a,
                                                      uint64_t desc_b) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 " SASSIM_WGMMA_TEXT128
      ", %128, %129, p, 1, 1, 0, 0;\n}\n"
      : SASSIM_WGMMA_D128(d)
      : "l"(desc_a), "l"(desc_b), "n"(1));
}

#undef SASSIM_WGMMA_D128
#undef SASSIM_WGMMA_D64
#undef SASSIM_WGMMA_F64
#undef SASSIM_WGMMA_F8
#undef SASSIM_WGMMA_TEXT128
#undef SASSIM_WGMMA_TEXT64
#undef SASSIM_WGMMA_R64_127
#undef SASSIM_WGMMA_R0_63

}  // namespace sassim::kernels::sm90a
