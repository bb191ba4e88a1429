#pragma once
// The compact instruction values the timing model consumes. A static instruction is
// decoded once per (kernel, PC); each dynamic warp instruction carries only an index
// into its kernel's static table, the active mask and where its addresses are.
#include <array>
#include <cstdint>

#include "isa/opcode.h"

namespace sassim::isa {

inline constexpr std::uint16_t kRegZero = 255;  // RZ: reads as zero, writes are discarded
inline constexpr std::size_t kMaxDstRanges = 4;
inline constexpr std::size_t kMaxSrcRegs = 8;

// A run of consecutive registers written together (LDG.E.128 R4 -> R4..R7).
struct RegRange {
  std::uint16_t first = 0;
  std::uint8_t count = 0;
};

struct StaticInst {
  std::uint64_t pc = 0;
  DecodedOpcode op;
  std::uint8_t mem_width_bytes = 0;  // per-thread access size recorded in the trace; 0 = none
  // The instruction's immediate as the trace records it (tracer version 5; 0 before):
  // for DEPBAR.LE SB0, N the N.
  std::int64_t immediate = 0;
  std::uint8_t num_dst = 0;  // destination ranges (RZ destinations dropped)
  std::uint8_t num_src = 0;  // source registers (RZ dropped)
  std::array<RegRange, kMaxDstRanges> dst{};
  std::array<std::uint16_t, kMaxSrcRegs> src{};
};

// One executed warp instruction. Addresses of memory instructions live in the CTA's
// address pool: addr_count entries from addr_begin (one per active thread).
struct WarpInst {
  std::uint32_t static_index = 0;  // into the kernel's static instruction table
  std::uint32_t active_mask = 0;
  std::uint32_t addr_begin = 0;
  std::uint32_t addr_count = 0;
};

}  // namespace sassim::isa
