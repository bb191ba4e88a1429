#pragma once
// Hopper warpgroup matrix instructions (wgmma): what their operands say beyond the
// opcode, and the shared memory they read. A listing spells them as
//   HGMMA.64x128x16.F32.BF16 R24, gdesc[UR12], R24, gsb0 ;   (A and B from shared memory)
//   HGMMA.64x128x16.F32.BF16 R24, R152, gdesc[UR4], R24 ;    (A from registers)
//   WARPGROUP.DEPBAR.LE gsb0, 0x1 ;                          (at most 1 group pending)
// Accel-Sim traces record neither descriptors, gsb0 nor immediates: there A is in
// registers when the instruction reads a register outside its accumulator.
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "isa/opcode.h"

namespace sassim::isa {

struct WarpgroupMmaOperands {
  bool a_from_shared = true;   // operand 1 is a descriptor (gdesc[URn])
  bool commits_group = false;  // ends with gsb0: closes a wgmma group (wgmma.commit_group)
};

// Operands as the listing writes them, destination first. nullopt when they are not
// those of a warpgroup matrix instruction (fewer than three, no descriptor for B).
std::optional<WarpgroupMmaOperands> warpgroup_mma_operands(
    std::span<const std::string_view> operands);

// WARPGROUP.DEPBAR.LE gsb0, 0xN: N, the groups that may stay pending; nullopt when the
// operands are not "gsb0, <integer>".
std::optional<std::uint32_t> warpgroup_depbar_pending(std::span<const std::string_view> operands);

// Bytes a warpgroup matrix instruction reads from shared memory: B (N x K) always, A
// (64 x K, half of it for sparse forms) when `a_from_shared`. 0 for other instructions.
std::uint32_t warpgroup_shared_bytes(const MatrixShape& shape, bool a_from_shared);

}  // namespace sassim::isa
