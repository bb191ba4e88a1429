// Local memory (a thread's stack and the compiler's spills: LDL, STL, and generic
// addresses in the local window) laid out as the GPU lays it out: word i of every thread's
// space side by side, so that the threads of a warp at one offset touch adjacent words and
// the access coalesces ("consecutive 32-bit words are accessed by consecutive thread IDs":
// CUDA C++ Programming Guide, Device Memory Accesses, Local Memory; GPGPU-Sim's
// translate_local_memaddr does the same). Traces give each thread's own offset, the same
// number for every thread at one instruction.
#pragma once

#include <cstdint>

namespace sassim::sim {

// Above every buffer a trace names (their addresses are below 2^48).
inline constexpr std::uint64_t kLocalMemoryBase = std::uint64_t{0xf} << 60;
// Thread places on the whole GPU, a bound on SMs x threads an SM (256 x 4096).
inline constexpr std::uint64_t kLocalThreadSlots = std::uint64_t{1} << 20;

// The address of byte `offset` of the local space of the thread in place `thread_slot`
// (SM x threads an SM + warp slot x 32 + lane) for an access moving `unit` bytes a
// thread (4, 8 or 16: a warp's 8-byte accesses cover 256 contiguous bytes, as on the GPU).
constexpr std::uint64_t local_address(std::uint64_t offset, std::uint64_t thread_slot,
                                      std::uint32_t unit) {
  return kLocalMemoryBase + offset / unit * (kLocalThreadSlots * unit) + thread_slot * unit +
         offset % unit;
}

}  // namespace sassim::sim
