// The microbenchmarks whose real-GPU cycles and warp-instruction counts the project
// holds (the Accel-Sim GPU_Microbenchmark runs recorded on QV100, A100 and H100:
// docs/UBENCH.md). The kernels are this project's own (latency.cu, bandwidth.cu,
// shared.cu here); this header gives their constants (shared with the CUDA sources),
// launches and host-side inputs, so that SASS execution needs no GPU.
//
// Every kernel but shared_bank_conflicts writes `clocks`: clock64() before and after its
// timed part, two 64-bit values per thread. `sink` outputs keep loaded values alive; they are not
// checked.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "kernels/launch.h"
#include "kernels/params.h"

namespace sassim::kernels::ubench {

// Latency: pointer chases.
inline constexpr uint32_t kL1LatEntries = 8192;     // l1_lat: ring of 64-bit addresses, 64 KiB
inline constexpr uint32_t kL1LatThreads = 1;        // l1_lat: the one thread builds and chases
inline constexpr uint32_t kL1LatCtaEntries = 4096;  // l1_lat_cta: 32 KiB
inline constexpr uint32_t kL1LatSteps = 256;        // per chasing thread
inline constexpr uint32_t kL2LatEntries = 4096;     // 32 KiB: one warp links, lane 0 chases
inline constexpr uint32_t kL2LatSteps = 32768;
inline constexpr uint32_t kMemLatChasers = 4;                 // threads 0-3: one 32-byte sector
inline constexpr uint32_t kMemLatLoads = 32768;               // the chasers' loads together
inline constexpr uint32_t kMemLatThreads = 32;                // mem_lat: one warp links the ring
inline constexpr uint32_t kSharedLatEntries = 32 * 1024 / 8;  // 64-bit ring, 32 KiB
inline constexpr uint32_t kSharedLatSteps = 2048;

// L1 bandwidth: one CTA of 1024 threads over an L1-resident array.
inline constexpr uint32_t kL1BwThreads = 1024;
inline constexpr uint32_t kL1BwFloats = 16384;  // 32f, 128, 32f_unroll
inline constexpr uint32_t kL1BwDoubles = 8192;  // 64f
inline constexpr uint32_t kL1BwRepeats = 4096;
inline constexpr uint32_t kL1Bw64Repeats = 256;
// l1_bw_32f_unroll_large: the record's program allocates, fills and warms 32,768 floats
// but reads 1,024 + 4,096 x 32 (its loop runs 396 KiB past the allocation); here the
// buffer spans every address read and only the first 32,768 floats are written.
inline constexpr uint32_t kL1BwLargeWarmFloats = 32768;
inline constexpr uint32_t kL1BwLargeFloats = kL1BwThreads + kL1BwRepeats * 32;

// L2 bandwidth, L1 bypassed (ld.global.cg): the record's programs run two CTAs of 1024
// threads per SM and REPEATS (512 with --fast) loads per thread, both launch values; the
// _sm variants one CTA per SM and 2048 loads.
inline constexpr uint32_t kL2BwThreads = 1024;
inline constexpr uint32_t kL2BwRepeats = 2048;  // _sm variants

// DRAM bandwidth: one CTA of 1024 threads per SM, float4 grid-stride loop.
inline constexpr uint32_t kMemBwThreads = 1024;

// Shared memory.
inline constexpr uint32_t kSharedBwWords = 32 * 1024 / 4;
inline constexpr uint32_t kSharedBwSteps = 4096;
inline constexpr uint32_t kL1SharedWords = 48 * 1024 / 4;  // the shared ring
inline constexpr uint32_t kL1SharedRingWords = 16384;      // the L1 ring (64 KiB)
// l1_shared_bw: the record's program copies only the first 1024 entries of the L1 ring
// (TOTAL_THREADS x 4 bytes); the rest of the buffer holds zeros (_ring: all of it).
inline constexpr uint32_t kL1SharedCopiedWords = 1024;
inline constexpr uint32_t kL1SharedRingStride = 1024;
inline constexpr uint32_t kL1SharedSteps = 4096;
inline constexpr uint32_t kBankMatrix = 512;  // shared_bank_conflicts: 512 x 512 transpose
inline constexpr uint32_t kBankTile = 32;
inline constexpr uint32_t kBankRows = 8;

// Integer throughput: 4 dependent multiply-adds per iteration.
inline constexpr uint32_t kIopsThreads = 1024;
inline constexpr uint32_t kIopsSteps = 1024;

// The kernels' extern "C" names.
std::span<const std::string_view> kernels();
bool is_kernel(std::string_view kernel);

// The problem a suite line's values describe. Values by kernel:
//   ubench_l2_bw_32f, ubench_l2_bw_64f  BLOCKS REPEATS (two CTAs per SM; 512 with --fast)
//   ubench_l2_bw_32f_sm, _64f_sm        BLOCKS (one per SM)
//   ubench_mem_bw                       BLOCKS FLOATS (per array; a multiple of 4)
//   ubench_mem_lat                      ENTRIES (64-bit ring entries, >= 8; one warp)
//   ubench_mem_lat_cta                  BLOCKS ENTRIES
//   the others                          none (their shape is fixed)
struct Problem {
  uint32_t blocks = 1;
  uint32_t size = 0;     // FLOATS or ENTRIES
  uint32_t repeats = 0;  // REPEATS
};
Problem parse_problem(std::string_view kernel, ParamValues values);
Launch launch(std::string_view kernel, const Problem& p);
Launch describe_launch(std::string_view kernel, ParamValues values);

// The bytes the program copies to the start of buffer argument `arg_index` of `launch`
// before the kernel runs; the rest of the buffer holds zeros (empty: all zeros; pointer
// rings are built in the kernel from device addresses). The record's l1_shared_bw and
// l1_bw_32f_unroll_large copy only a part of the buffer their kernels read.
std::vector<uint8_t> initial_contents(const Launch& launch, uint32_t arg_index);

// The one-CTA-per-SM L2 bandwidth kernels (ubench_l2_bw_32f_sm, ubench_l2_bw_64f_sm).
bool is_l2_bw_sm(std::string_view kernel);

// The transposes of shared_bank_conflicts 1 (ubench_shared_bank_conflicts, tile[32][32])
// and 2 (ubench_shared_bank_conflicts_padded, tile[32][33]).
bool is_transpose(std::string_view kernel);
// They compute out = in^T over the 512 x 512 matrix.
void transpose_reference(std::span<const float> in, std::span<float> out);

}  // namespace sassim::kernels::ubench
