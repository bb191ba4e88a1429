#include "isa/warpgroup.h"

#include <charconv>

namespace sassim::isa {
namespace {

bool is_descriptor(std::string_view s) {
  return s.starts_with("gdesc[");
}

// Bits of one operand element.
std::uint32_t element_bits(MmaType type) {
  switch (type) {
    case MmaType::kF16:
    case MmaType::kBf16:
      return 16;
    case MmaType::kTf32:
      return 32;
    case MmaType::kFp8:
    case MmaType::kInt8:
      return 8;
    case MmaType::kInt4:
      return 4;
    case MmaType::kFp64:
      return 64;
    case MmaType::kBinary:
      return 1;
    case MmaType::kNone:
      break;
  }
  return 0;
}

}  // namespace

std::optional<WarpgroupMmaOperands> warpgroup_mma_operands(
    std::span<const std::string_view> operands) {
  if (operands.size() < 3) return std::nullopt;
  WarpgroupMmaOperands out;
  out.commits_group = operands.back() == "gsb0";
  const std::size_t used = operands.size() - (out.commits_group ? 1 : 0);
  // D, A or descA, descB, C: B is always a descriptor, A a descriptor or a register.
  if (used < 3) return std::nullopt;
  out.a_from_shared = is_descriptor(operands[1]);
  const bool b_found = is_descriptor(operands[out.a_from_shared ? 1 : 2]);
  if (!b_found) return std::nullopt;
  return out;
}

std::optional<std::uint32_t> warpgroup_depbar_pending(std::span<const std::string_view> operands) {
  if (operands.size() != 2 || operands[0] != "gsb0") return std::nullopt;
  std::string_view n = operands[1];
  int base = 10;
  if (n.starts_with("0x") || n.starts_with("0X")) {
    n.remove_prefix(2);
    base = 16;
  }
  std::uint32_t value = 0;
  auto [p, ec] = std::from_chars(n.data(), n.data() + n.size(), value, base);
  if (ec != std::errc{} || p != n.data() + n.size() || n.empty()) return std::nullopt;
  return value;
}

std::uint32_t warpgroup_shared_bytes(const MatrixShape& shape, bool a_from_shared) {
  if (!shape.warpgroup) return 0;
  const std::uint32_t bits = element_bits(shape.type);
  const std::uint32_t b = shape.n * shape.k * bits / 8;
  // Sparse A is stored compressed (2 of every 4 elements); its metadata is in registers.
  const std::uint32_t a = shape.m * shape.k * bits / 8 / (shape.sparse ? 2 : 1);
  return b + (a_from_shared ? a : 0);
}

}  // namespace sassim::isa
