#pragma once
// Shared memory bank conflicts: how many passes through the banks a warp's shared
// access needs. Pure function.
//
// The banks deliver banks * bank_bytes per pass (128 bytes on NVIDIA GPUs). A warp
// whose access is wider than that is split into phases of consecutive lanes: with 32
// banks of 4 bytes, 64-bit accesses run as two half-warps and 128-bit accesses as four
// quarter-warps. Within a phase, each bank serves one distinct word per pass; threads
// reading the same word share it (broadcast). Passes = sum over phases of the largest
// number of distinct words addressed in any one bank; a phase without active lanes
// costs nothing, an access with active lanes at least one pass.
#include <cstdint>
#include <span>

namespace sassim::memsys {

struct SharedBankGeometry {
  std::uint32_t banks = 32;
  std::uint32_t bank_bytes = 4;
};

// addresses: one per active lane of active_mask, in lane order. bytes_per_thread is
// 1, 2, 4, 8 or 16 (throws sassim::Error otherwise). Returns 0 for an empty mask.
std::uint32_t shared_bank_passes(std::span<const std::uint64_t> addresses,
                                 std::uint32_t active_mask, std::uint32_t bytes_per_thread,
                                 const SharedBankGeometry& geometry);

}  // namespace sassim::memsys
