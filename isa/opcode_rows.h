#pragma once
// Internal to isa/: the rows of the opcode tables. Every base mnemonic is one row with
// its classification and the set of architectures that have it, so a generation's
// additions and removals are visible in one place; OpcodeTable::get(arch) keeps the
// rows whose mask contains arch.
#include <cstdint>
#include <span>
#include <string_view>

#include "isa/arch.h"
#include "isa/opcode.h"

namespace sassim::isa {

using ArchMask = std::uint8_t;

constexpr ArchMask arch_bit(Arch arch) {
  return static_cast<ArchMask>(1u << static_cast<unsigned>(arch));
}
// Every architecture from `first` on.
constexpr ArchMask arch_from(Arch first) {
  ArchMask mask = 0;
  for (Arch arch : kAllArchs) {
    if (static_cast<unsigned>(arch) >= static_cast<unsigned>(first)) mask |= arch_bit(arch);
  }
  return mask;
}

inline constexpr ArchMask kPascal = arch_bit(Arch::kSm60) | arch_bit(Arch::kSm61);
inline constexpr ArchMask kAllGens = arch_from(Arch::kSm60);
inline constexpr ArchMask kVoltaOn = arch_from(Arch::kSm70);
inline constexpr ArchMask kTuringOn = arch_from(Arch::kSm75);
inline constexpr ArchMask kAmpereOn = arch_from(Arch::kSm80);
inline constexpr ArchMask kHopper = arch_bit(Arch::kSm90);
inline constexpr ArchMask kVoltaTuring = arch_bit(Arch::kSm70) | arch_bit(Arch::kSm75);
inline constexpr ArchMask kPascalToTuring = kPascal | kVoltaTuring;

// How many registers the first destination of an opcode writes, as a function of its
// modifiers (see opcode_modifiers.cc for each rule and its source).
enum class DstRule : std::uint8_t {
  kOne,           // a single 32-bit register
  kMemVector,     // loads/atomics: bytes accessed / 4 (.64 -> 2, .128 -> 4)
  kLdsm,          // LDSM: one register per 8x8 matrix (.x2/.2 -> 2, .x4/.4 -> 4)
  kWide,          // IMAD.WIDE, IMUL.WIDE, IADD.64, MOV.64, ...: .WIDE or .64 -> 2
  kFp64,          // DADD, DMUL, DFMA, DMNMX: always a register pair
  kFp64Dst,       // F2F, I2F, FRND: 2 when the destination type (first type modifier) is F64
  kInt64Dst,      // F2I, I2I: 2 when the destination type (first type modifier) is S64/U64
  kHalfMma,       // HMMA, QMMA: shape and accumulator type
  kIntMma,        // IMMA, BMMA: shape (8x8 -> 2, 16x8 -> 4)
  kDoubleMma,     // DMMA: shape (8x8 -> 4, 16x8 -> 8)
  kWarpgroupMma,  // HGMMA, IGMMA, QGMMA, BGMMA: N/2 (32-bit accumulators) or N/4 (F16)
  kCs2r,          // CS2R: 2 (64-bit) unless .32
};

struct OpcodeTable::Row {
  std::string_view name;  // base mnemonic, without modifiers
  UnitClass unit;
  MemSpace space;
  MemKind mem;
  ControlKind control;
  DstRule dst;
  ArchMask archs;
};

using OpcodeRow = OpcodeTable::Row;

// The rows, grouped by the sections of NVIDIA's instruction set reference.
std::span<const OpcodeRow> compute_opcode_rows();  // FP, integer, conversion, tensor
std::span<const OpcodeRow> memory_opcode_rows();   // load/store, texture, surface, TMA
std::span<const OpcodeRow> control_opcode_rows();  // control, uniform, misc

}  // namespace sassim::isa
