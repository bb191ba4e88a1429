// Special registers S2R / S2UR / CS2R read.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace sassim::emu {

enum class SpecialReg : uint8_t {
  kZero,  // SRZ
  kTidX,
  kTidY,
  kTidZ,
  kCtaidX,
  kCtaidY,
  kCtaidZ,
  kLaneId,
  kClockLo,
  kClockHi,
  kGlobalTimerLo,
  kGlobalTimerHi,
  kCgaCtaId,
  kLtMask,
  kLeMask,
  kGtMask,
  kGeMask,
  kEqMask,
  kVirtualSmId,
  kSmId,
  kWarpId,
};

std::optional<SpecialReg> special_reg(std::string_view name);

}  // namespace sassim::emu
