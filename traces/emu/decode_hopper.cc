// Modifiers of the Hopper operations the executor runs: warpgroup matrix multiplies
// (HGMMA, QGMMA), mbarriers, TMA tensor loads and ELECT.
#include <algorithm>
#include <charconv>
#include <initializer_list>
#include <string>
#include <string_view>

#include "traces/emu/decode_ops.h"

namespace sassim::emu::detail {
namespace {

// "64x128x16" -> 128 (k = 16); 0 when the shape is not 64xNxk with N a multiple of 8 up
// to 256.
uint16_t wgmma_n(std::string_view m, std::string_view k) {
  if (!m.starts_with("64x") || !m.ends_with(k) || m.size() <= 3 + k.size()) return 0;
  const std::string_view n_text = m.substr(3, m.size() - 3 - k.size());
  unsigned n = 0;
  const auto [end, ec] = std::from_chars(n_text.data(), n_text.data() + n_text.size(), n);
  if (ec != std::errc() || end != n_text.data() + n_text.size()) return 0;
  if (n == 0 || n > 256 || n % 8 != 0) return 0;
  return static_cast<uint16_t>(n);
}

std::string hgmma(const traces::sass::Instruction& s, Inst& inst) {
  bool f32 = false, inputs = false;
  for (const std::string& m : s.modifiers) {
    if (const uint16_t n = wgmma_n(m, "x16"); n != 0 && inst.mma_n == 0) {
      inst.mma_n = n;
    } else if (m == "F32" && !f32) {
      f32 = true;
    } else if ((m == "BF16" || m == "F16") && !inputs) {
      inputs = true;
      if (m == "BF16") inst.flags |= flag::kBf16;
    } else {
      return "unsupported modifier ." + m +
             " of HGMMA (only HGMMA.64xNx16.F32.BF16 and .F32.F16, N = 8..256)";
    }
  }
  if (inst.mma_n == 0 || !f32 || !inputs)
    return "expected HGMMA.64xNx16.F32.BF16 or HGMMA.64xNx16.F32.F16";
  return {};
}

// QGMMA.64xNx32.F32.{E4M3,E5M2}.{E4M3,E5M2}: A's type, then B's.
std::string qgmma(const traces::sass::Instruction& s, Inst& inst) {
  bool f32 = false;
  unsigned types = 0;
  inst.flags |= flag::kFp8;
  for (const std::string& m : s.modifiers) {
    if (const uint16_t n = wgmma_n(m, "x32"); n != 0 && inst.mma_n == 0) {
      inst.mma_n = n;
    } else if (m == "F32" && !f32) {
      f32 = true;
    } else if ((m == "E4M3" || m == "E5M2") && f32 && types < 2) {
      if (m == "E5M2") inst.sub = static_cast<uint8_t>(inst.sub | (1U << types));
      ++types;
    } else {
      return "unsupported modifier ." + m +
             " of QGMMA (only QGMMA.64xNx32.F32 with E4M3 or E5M2 A and B, N = 8..256)";
    }
  }
  if (inst.mma_n == 0 || !f32 || types != 2)
    return "expected QGMMA.64xNx32.F32.E4M3.E4M3 (or E5M2 for A or B)";
  return {};
}

std::string syncs(const traces::sass::Instruction& s, Inst& inst) {
  const auto& m = s.modifiers;
  auto is = [&](std::initializer_list<std::string_view> want) {
    return m.size() == want.size() && std::equal(m.begin(), m.end(), want.begin());
  };
  if (is({"EXCH", "64"})) {
    inst.sub = static_cast<uint8_t>(SyncsOp::kInit);
  } else if (is({"ARRIVE", "TRANS64"})) {
    inst.sub = static_cast<uint8_t>(SyncsOp::kArriveTx);
  } else if (is({"ARRIVE", "TRANS64", "A1T0"}) || is({"ARRIVE", "TRANS64", "RED", "A1T0"})) {
    // .RED: to an mbarrier of any CTA of the cluster (mbarrier.arrive.shared::cluster).
    inst.sub = static_cast<uint8_t>(SyncsOp::kArrive);
  } else if (is({"PHASECHK", "TRANS64", "TRYWAIT"})) {
    inst.sub = static_cast<uint8_t>(SyncsOp::kTryWait);
  } else {
    return "unsupported form " + s.mnemonic +
           " (only SYNCS.EXCH.64, SYNCS.ARRIVE.TRANS64[.RED][.A1T0] and "
           "SYNCS.PHASECHK.TRANS64.TRYWAIT)";
  }
  inst.width = 8;
  return {};
}

}  // namespace

std::string decode_hopper_modifiers(const traces::sass::Instruction& s, Inst& inst) {
  switch (inst.op) {
    case Op::kHgmma:
      return s.opcode == "QGMMA" ? qgmma(s, inst) : hgmma(s, inst);
    case Op::kSyncs:
      return syncs(s, inst);
    case Op::kUtmaldg:
      if (s.modifiers.empty() || s.modifiers.size() > 2 || s.modifiers[0] != "2D" ||
          (s.modifiers.size() == 2 && s.modifiers[1] != "MULTICAST"))
        return "unsupported form " + s.mnemonic + " (only UTMALDG.2D[.MULTICAST])";
      inst.sub = s.modifiers.size() == 2 ? 1 : 0;  // multicast: the CTA mask in the source
      return {};
    default:  // ELECT
      if (!s.modifiers.empty()) return "unsupported modifier ." + s.modifiers[0] + " of ELECT";
      return {};
  }
}

}  // namespace sassim::emu::detail
