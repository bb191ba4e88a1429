#pragma once
// GPU architectures (SASS generations) known to sassim.
#include <cstdint>
#include <optional>
#include <string_view>

namespace sassim::isa {

enum class Arch : std::uint8_t { kSm60, kSm61, kSm70, kSm75, kSm80, kSm86, kSm89, kSm90 };

inline constexpr Arch kAllArchs[] = {Arch::kSm60, Arch::kSm61, Arch::kSm70, Arch::kSm75,
                                     Arch::kSm80, Arch::kSm86, Arch::kSm89, Arch::kSm90};

// Maps a trace's "-binary version" (60, 61, 70, 75, 80, 86, 89, 90) to an Arch.
std::optional<Arch> arch_from_binary_version(int binary_version);
// Parses "sm_80" (also "sm80", "80"); nullopt when unknown.
std::optional<Arch> arch_from_name(std::string_view name);
// "sm_80".
std::string_view arch_name(Arch arch);
// 80 for kSm80.
int arch_number(Arch arch);

}  // namespace sassim::isa
