#include "isa/arch.h"

#include <charconv>

namespace sassim::isa {

std::optional<Arch> arch_from_binary_version(int binary_version) {
  switch (binary_version) {
    case 60:
      return Arch::kSm60;
    case 61:
      return Arch::kSm61;
    case 70:
      return Arch::kSm70;
    case 75:
      return Arch::kSm75;
    case 80:
      return Arch::kSm80;
    case 86:
      return Arch::kSm86;
    case 89:
      return Arch::kSm89;
    case 90:
      return Arch::kSm90;
    default:
      return std::nullopt;
  }
}

std::optional<Arch> arch_from_name(std::string_view name) {
  if (name.starts_with("sm_")) {
    name.remove_prefix(3);
  } else if (name.starts_with("sm")) {
    name.remove_prefix(2);
  }
  int number = 0;
  const char* end = name.data() + name.size();
  auto [ptr, ec] = std::from_chars(name.data(), end, number);
  if (name.empty() || ec != std::errc() || ptr != end) return std::nullopt;
  return arch_from_binary_version(number);
}

std::string_view arch_name(Arch arch) {
  switch (arch) {
    case Arch::kSm60:
      return "sm_60";
    case Arch::kSm61:
      return "sm_61";
    case Arch::kSm70:
      return "sm_70";
    case Arch::kSm75:
      return "sm_75";
    case Arch::kSm80:
      return "sm_80";
    case Arch::kSm86:
      return "sm_86";
    case Arch::kSm89:
      return "sm_89";
    case Arch::kSm90:
      return "sm_90";
  }
  return "sm_unknown";
}

int arch_number(Arch arch) {
  switch (arch) {
    case Arch::kSm60:
      return 60;
    case Arch::kSm61:
      return 61;
    case Arch::kSm70:
      return 70;
    case Arch::kSm75:
      return 75;
    case Arch::kSm80:
      return 80;
    case Arch::kSm86:
      return 86;
    case Arch::kSm89:
      return 89;
    case Arch::kSm90:
      return 90;
  }
  return 0;
}

}  // namespace sassim::isa
