#pragma once
// The operand reuse cache of control-bit mode (sim/register_file.h): which register a
// listing instruction names at each operand position, which positions its reuse flags
// keep, and what one warp's cache holds.
#include <array>
#include <cstddef>
#include <cstdint>

namespace sassim::sim {

// Operand positions of a listing instruction that can carry a reuse flag (0 = first).
inline constexpr std::size_t kReuseSlots = 6;
inline constexpr std::uint8_t kNoReuseReg = 0xff;  // no register (RZ is never cached)

// The general registers a listing instruction names at each operand position and the
// positions whose value its reuse flags keep for the warp's next instruction.
struct OperandSlots {
  std::array<std::uint8_t, kReuseSlots> reg{kNoReuseReg, kNoReuseReg, kNoReuseReg,
                                            kNoReuseReg, kNoReuseReg, kNoReuseReg};
  std::uint8_t reuse_mask = 0;  // bit k: position k has ".reuse"
};

// One warp's reuse cache: the register each operand position holds (kNoReuseReg: none).
using ReuseCache = std::array<std::uint8_t, kReuseSlots>;
inline constexpr ReuseCache kEmptyReuseCache{kNoReuseReg, kNoReuseReg, kNoReuseReg,
                                             kNoReuseReg, kNoReuseReg, kNoReuseReg};

}  // namespace sassim::sim
