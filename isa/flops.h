#pragma once
// Floating-point work of arithmetic opcodes, for FLOP/s and roofline figures.
#include <cstdint>
#include <string_view>

#include "isa/opcode_modifiers.h"

namespace sassim::isa {

enum class FlopKind : std::uint8_t { kNone, kFp32, kFp16, kFp64, kTensor };
inline constexpr std::size_t kNumFlopKinds = 5;
std::string_view flop_kind_name(FlopKind kind);

struct FlopInfo {
  FlopKind kind = FlopKind::kNone;
  // Floating-point operations per active thread (an FMA counts 2). Matrix
  // instructions count 2*M*N*K of the whole warp (warpgroup for GMMA) spread
  // over its threads; sparse variants count their logical (dense) shape.
  std::uint16_t per_thread = 0;
};

FlopInfo flops_of(const OpcodeText& text);

}  // namespace sassim::isa
