#include "isa/opcode_modifiers.h"

#include <algorithm>
#include <charconv>

namespace sassim::isa {
namespace {

bool is_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Element-type modifiers (the destination type comes first in SASS: F2F.F64.F32).
bool is_type(std::string_view m) {
  static constexpr std::string_view kTypes[] = {"F16",  "F32", "F64", "BF16", "TF32", "E4M3",
                                                "E5M2", "S4",  "U4",  "S8",   "U8",   "S16",
                                                "U16",  "S32", "U32", "S64",  "U64"};
  return std::find(std::begin(kTypes), std::end(kTypes), m) != std::end(kTypes);
}

std::string_view first_type(const OpcodeText& text, std::size_t from = 0) {
  for (std::size_t i = from; i < text.size(); ++i) {
    if (is_type(text[i])) return text[i];
  }
  return {};
}

// Index of the MMA shape modifier ("884", "16816", "64x128x16"), or size() if none.
std::size_t shape_index(const OpcodeText& text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    std::string_view m = text[i];
    if ((is_digits(m) && m.size() >= 3) || (m.starts_with("64X") || m.starts_with("64x"))) {
      return i;
    }
  }
  return text.size();
}

// HMMA/QMMA. Volta HMMA.884.{F32,F16}.*.STEPn: each step writes one register pair (the
// four F32 steps cover the 8 accumulators of m8n8k4, the two F16 steps its 4 packed
// registers). Turing+ HMMA.1688/16816/16832 (and QMMA.16832): D is 16x8 per warp, i.e.
// 4 elements per thread: 4 registers with F32 accumulators, 2 with packed F16.
std::uint8_t half_mma_registers(const OpcodeText& text) {
  std::size_t shape = shape_index(text);
  if (shape < text.size() && text[shape] == "884") return 2;
  std::string_view acc = first_type(text, shape < text.size() ? shape + 1 : 0);
  return acc == "F16" ? 2 : 4;
}

// IMMA/BMMA: D is 8x8 (IMMA.8816, IMMA.8832, BMMA.88128: 2 S32 per thread) or 16x8
// (IMMA.16816, IMMA.16832, IMMA.16864, BMMA.168128, BMMA.168256: 4 S32 per thread).
std::uint8_t int_mma_registers(const OpcodeText& text) {
  std::size_t shape = shape_index(text);
  if (shape < text.size() && text[shape].starts_with("16")) return 4;
  return 2;
}

// DMMA: D holds F64 values. DMMA.884 (m8n8k4): 2 doubles per thread = 4 registers;
// sm_90's DMMA.1684/1688/16816 (m16n8kK): 4 doubles per thread = 8 registers.
std::uint8_t double_mma_registers(const OpcodeText& text) {
  std::size_t shape = shape_index(text);
  if (shape < text.size() && text[shape].starts_with("16")) return 8;
  return 4;
}

// HGMMA.64xNxK.F32 / IGMMA...S32 / QGMMA / BGMMA: a warpgroup (128 threads) holds the
// 64xN accumulator tile: N/2 registers per thread for 32-bit accumulators, N/4 for F16.
std::uint8_t warpgroup_mma_registers(const OpcodeText& text) {
  std::size_t shape = shape_index(text);
  if (shape == text.size()) return 1;
  std::string_view m = text[shape].substr(3);  // "NxK"
  unsigned n = 0;
  auto [ptr, ec] = std::from_chars(m.data(), m.data() + m.size(), n);
  if (ec != std::errc() || n == 0 || n > 256) return 1;
  unsigned regs = first_type(text, shape + 1) == "F16" ? n / 4 : n / 2;
  return static_cast<std::uint8_t>(std::max(1u, regs));
}

}  // namespace

std::optional<OpcodeText> OpcodeText::split(std::string_view text) {
  OpcodeText out;
  std::size_t dot = text.find('.');
  out.base_ = text.substr(0, dot);
  if (out.base_.empty()) return std::nullopt;
  while (dot != std::string_view::npos) {
    std::size_t next = text.find('.', dot + 1);
    std::string_view mod =
        text.substr(dot + 1, next == std::string_view::npos ? next : next - dot - 1);
    if (!mod.empty()) {
      if (out.count_ == kMaxModifiers) return std::nullopt;
      out.mods_[out.count_++] = mod;
    }
    dot = next;
  }
  return out;
}

bool OpcodeText::has(std::string_view modifier) const {
  return std::find(begin(), end(), modifier) != end();
}

std::uint8_t memory_access_bytes(const OpcodeText& text) {
  if (text.base() == "LDSM" || text.base() == "STSM") return 16;
  for (std::string_view m : text) {
    if (m == "U8" || m == "S8") return 1;
    if (m == "U16" || m == "S16") return 2;
    if (m == "32" || m == "U32" || m == "S32") return 4;
    if (m == "64" || m == "U64" || m == "S64" || m == "F64") return 8;
    if (m == "128") return 16;
  }
  return 4;
}

std::uint8_t destination_registers(DstRule rule, const OpcodeText& text,
                                   std::uint8_t access_bytes) {
  switch (rule) {
    case DstRule::kOne:
      return 1;
    case DstRule::kMemVector:  // LDG.E.64 -> R4..R5, LDS.128 -> R4..R7
      return static_cast<std::uint8_t>(std::max(1, access_bytes / 4));
    case DstRule::kLdsm:  // LDSM.16.M88.4 / .MT88.4: four 8x8 matrices, one register each
      if (text.has("4") || text.has("X4")) return 4;
      if (text.has("2") || text.has("X2")) return 2;
      return 1;
    case DstRule::kWide:  // IMAD.WIDE(.U32): 64-bit result; IADD.64, MOV.64 where they exist
      return text.has("WIDE") || text.has("64") ? 2 : 1;
    case DstRule::kFp64:
      return 2;
    case DstRule::kFp64Dst:  // F2F.F64.F32, I2F.F64.S64, FRND.F64 (not F2F.F32.F64)
      return first_type(text) == "F64" ? 2 : 1;
    case DstRule::kInt64Dst:  // F2I.S64.TRUNC, F2I.U64.F64 (not F2I.FTZ.U32.TRUNC)
      return first_type(text) == "S64" || first_type(text) == "U64" ? 2 : 1;
    case DstRule::kHalfMma:
      return half_mma_registers(text);
    case DstRule::kIntMma:
      return int_mma_registers(text);
    case DstRule::kDoubleMma:
      return double_mma_registers(text);
    case DstRule::kWarpgroupMma:
      return warpgroup_mma_registers(text);
    case DstRule::kCs2r:  // CS2R R4, SRZ writes R4..R5; CS2R.32 one register
      return text.has("32") ? 1 : 2;
  }
  return 1;
}

}  // namespace sassim::isa
