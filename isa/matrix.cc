#include "isa/matrix.h"

#include <array>
#include <charconv>

namespace sassim::isa {
namespace {

struct WarpShape {
  std::string_view text;
  std::uint16_t m, n, k;
};

// Warp-level matrix shapes as SASS spells them in the first numeric modifier.
constexpr std::array<WarpShape, 10> kWarpShapes = {{
    {"884", 8, 8, 4},        // HMMA.884 (Volta, per step of a quad-pair) / DMMA.884
    {"1688", 16, 8, 8},      // HMMA.1688, DMMA.1688 (sm_90)
    {"16816", 16, 8, 16},    // HMMA.16816, IMMA.16816, DMMA.16816 (sm_90)
    {"8816", 8, 8, 16},      // IMMA.8816
    {"8832", 8, 8, 32},      // IMMA.8832 (4-bit)
    {"16832", 16, 8, 32},    // IMMA.16832, HMMA.SP.16832, QMMA.16832
    {"16864", 16, 8, 64},    // IMMA.16864 (4-bit)
    {"1684", 16, 8, 4},      // DMMA.1684 (sm_90)
    {"88128", 8, 8, 128},    // BMMA.88128
    {"168256", 16, 8, 256},  // BMMA.168256
}};

// "64x128x16" -> 64, 128, 16.
bool parse_gmma_shape(std::string_view s, MatrixShape& out) {
  std::uint16_t* dims[3] = {&out.m, &out.n, &out.k};
  for (int i = 0; i < 3; ++i) {
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), *dims[i]);
    if (ec != std::errc{}) return false;
    s.remove_prefix(static_cast<std::size_t>(p - s.data()));
    if (i < 2) {
      if (s.empty() || (s.front() != 'x' && s.front() != 'X')) return false;
      s.remove_prefix(1);
    }
  }
  return s.empty();
}

MmaAccum accum_of(std::string_view m) {
  if (m == "F16") return MmaAccum::kF16;
  if (m == "F32") return MmaAccum::kF32;
  if (m == "F64") return MmaAccum::kF64;
  if (m == "S32") return MmaAccum::kS32;
  return MmaAccum::kNone;
}

MmaType operand_of(std::string_view m) {
  if (m == "BF16") return MmaType::kBf16;
  if (m == "TF32") return MmaType::kTf32;
  if (m == "E4M3" || m == "E5M2") return MmaType::kFp8;
  if (m == "S8" || m == "U8") return MmaType::kInt8;
  if (m == "S4" || m == "U4") return MmaType::kInt4;
  return MmaType::kNone;
}

// The operand type spelled among the modifiers, else the opcode's default.
void read_types(const OpcodeText& text, std::size_t from, MatrixShape& out) {
  const std::string_view op = text.base();
  const bool half = op == "HMMA" || op == "HGMMA";
  const bool fp8 = op == "QMMA" || op == "QGMMA";
  const bool integer = op == "IMMA" || op == "IGMMA";
  const bool binary = op == "BMMA" || op == "BGMMA";
  out.type = half ? MmaType::kF16 : MmaType::kNone;
  out.accum = integer || binary ? MmaAccum::kS32 : MmaAccum::kF32;
  if (op == "DMMA") {
    out.type = MmaType::kFp64;
    out.accum = MmaAccum::kF64;
  }
  if (binary) out.type = MmaType::kBinary;
  bool accum_seen = false;
  for (std::size_t i = from; i < text.size(); ++i) {
    if (MmaType t = operand_of(text[i]); t != MmaType::kNone && !binary) {
      out.type = t;
    } else if (MmaAccum a = accum_of(text[i]);
               a != MmaAccum::kNone && !accum_seen && (half || fp8)) {
      out.accum = a;  // the destination type comes first (HMMA.16816.F32.BF16)
      accum_seen = true;
    }
  }
  if (fp8 && out.type == MmaType::kNone) out.type = MmaType::kFp8;
}

}  // namespace

bool is_warpgroup_matrix(std::string_view base) {
  return base == "HGMMA" || base == "IGMMA" || base == "QGMMA" || base == "BGMMA";
}

MatrixShape matrix_shape_of(const OpcodeText& text) {
  const std::string_view op = text.base();
  const bool warpgroup = is_warpgroup_matrix(op);
  if (!warpgroup && op != "HMMA" && op != "IMMA" && op != "DMMA" && op != "BMMA" && op != "QMMA") {
    return {};
  }
  MatrixShape out;
  std::size_t shape = text.size();
  for (std::size_t i = 0; i < text.size() && shape == text.size(); ++i) {
    if (warpgroup) {
      if (parse_gmma_shape(text[i], out)) shape = i;
      continue;
    }
    for (const WarpShape& s : kWarpShapes) {
      if (text[i] == s.text) {
        out.m = s.m;
        out.n = s.n;
        out.k = s.k;
        shape = i;
        break;
      }
    }
  }
  if (shape == text.size()) out = {};  // shape not spelled: no dimensions rather than guessed
  read_types(text, shape == text.size() ? 0 : shape + 1, out);
  out.sparse = text.has("SP");
  out.warpgroup = warpgroup;
  return out;
}

}  // namespace sassim::isa
