#include "traces/emu/special_regs.h"

#include <array>
#include <utility>

namespace sassim::emu {

std::optional<SpecialReg> special_reg(std::string_view name) {
  using enum SpecialReg;
  constexpr std::array<std::pair<std::string_view, SpecialReg>, 21> names = {{
      {"SRZ", kZero},
      {"SR_TID.X", kTidX},
      {"SR_TID.Y", kTidY},
      {"SR_TID.Z", kTidZ},
      {"SR_CTAID.X", kCtaidX},
      {"SR_CTAID.Y", kCtaidY},
      {"SR_CTAID.Z", kCtaidZ},
      {"SR_LANEID", kLaneId},
      {"SR_CLOCKLO", kClockLo},
      {"SR_CLOCKHI", kClockHi},
      {"SR_GLOBALTIMERLO", kGlobalTimerLo},
      {"SR_GLOBALTIMERHI", kGlobalTimerHi},
      {"SR_CgaCtaId", kCgaCtaId},
      {"SR_LTMASK", kLtMask},
      {"SR_LEMASK", kLeMask},
      {"SR_GTMASK", kGtMask},
      {"SR_GEMASK", kGeMask},
      {"SR_EQMASK", kEqMask},
      {"SR_VIRTUALSMID", kVirtualSmId},
      {"SR_SM_ID", kSmId},
      {"SR_VIRTID", kWarpId},
  }};
  for (const auto& [n, r] : names) {
    if (n == name) return r;
  }
  return std::nullopt;
}

}  // namespace sassim::emu
