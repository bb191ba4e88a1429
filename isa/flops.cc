#include "isa/flops.h"

#include <array>
#include <charconv>

namespace sassim::isa {
namespace {

struct Shape {
  std::string_view text;
  std::uint32_t m, n, k;
};

// Warp-level matrix shapes as SASS spells them in the first numeric modifier.
constexpr std::array<Shape, 10> kShapes = {{
    {"884", 8, 8, 4},        // HMMA.884 (Volta, per step of a quad-pair) / DMMA.884
    {"1688", 16, 8, 8},      // HMMA.1688, DMMA.1688 (sm_90)
    {"16816", 16, 8, 16},    // HMMA.16816, IMMA.16816
    {"8816", 8, 8, 16},      // IMMA.8816
    {"8832", 8, 8, 32},      // IMMA.8832 (4-bit)
    {"16832", 16, 8, 32},    // IMMA.16832, HMMA.SP.16832
    {"16864", 16, 8, 64},    // IMMA.16864 (4-bit)
    {"1684", 16, 8, 4},      // DMMA.1684 (sm_90)
    {"88128", 8, 8, 128},    // BMMA.88128
    {"168256", 16, 8, 256},  // BMMA.168256
}};

std::uint16_t per_thread(std::uint64_t total, std::uint32_t threads) {
  return static_cast<std::uint16_t>(total / threads);
}

// "64x128x16" -> 64, 128, 16.
bool parse_gmma_shape(std::string_view s, std::uint32_t& m, std::uint32_t& n, std::uint32_t& k) {
  std::uint32_t* out[3] = {&m, &n, &k};
  for (int i = 0; i < 3; ++i) {
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), *out[i]);
    if (ec != std::errc{}) return false;
    s.remove_prefix(static_cast<std::size_t>(p - s.data()));
    if (i < 2) {
      if (s.empty() || s.front() != 'x') return false;
      s.remove_prefix(1);
    }
  }
  return s.empty();
}

FlopInfo matrix_flops(const OpcodeText& text, bool warpgroup) {
  for (std::string_view mod : text) {
    if (warpgroup) {
      std::uint32_t m = 0, n = 0, k = 0;
      if (parse_gmma_shape(mod, m, n, k)) {
        return {FlopKind::kTensor, per_thread(2ULL * m * n * k, 128)};
      }
      continue;
    }
    for (const Shape& s : kShapes) {
      if (mod == s.text) return {FlopKind::kTensor, per_thread(2ULL * s.m * s.n * s.k, 32)};
    }
  }
  return {FlopKind::kTensor, 0};  // shape not spelled: counted as no FLOPs rather than guessed
}

}  // namespace

std::string_view flop_kind_name(FlopKind kind) {
  constexpr std::string_view kNames[] = {"none", "fp32", "fp16", "fp64", "tensor"};
  return kNames[static_cast<std::size_t>(kind)];
}

FlopInfo flops_of(const OpcodeText& text) {
  const std::string_view op = text.base();
  if (op == "FFMA" || op == "FFMA32I") return {FlopKind::kFp32, 2};
  if (op == "FADD" || op == "FADD32I" || op == "FMUL" || op == "FMUL32I")
    return {FlopKind::kFp32, 1};
  if (op == "HFMA2" || op == "HFMA2_32I") return {FlopKind::kFp16, 4};
  if (op == "HADD2" || op == "HADD2_32I" || op == "HMUL2" || op == "HMUL2_32I") {
    return {FlopKind::kFp16, 2};
  }
  if (op == "DFMA") return {FlopKind::kFp64, 2};
  if (op == "DADD" || op == "DMUL") return {FlopKind::kFp64, 1};
  if (op == "HMMA" || op == "IMMA" || op == "DMMA" || op == "BMMA")
    return matrix_flops(text, false);
  if (op == "HGMMA" || op == "IGMMA" || op == "QGMMA" || op == "BGMMA")
    return matrix_flops(text, true);
  return {};
}

}  // namespace sassim::isa
