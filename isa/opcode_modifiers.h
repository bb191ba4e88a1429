#pragma once
// Internal to isa/: the modifiers of an opcode ("LDG.E.128.SYS" -> LDG + E, 128, SYS)
// and the rules that derive access size and destination footprint from them.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "isa/opcode_rows.h"

namespace sassim::isa {

class OpcodeText {
 public:
  static constexpr std::size_t kMaxModifiers = 16;

  // nullopt when the text is empty, starts with '.', or has too many modifiers.
  static std::optional<OpcodeText> split(std::string_view text);

  std::string_view base() const { return base_; }
  std::size_t size() const { return count_; }
  std::string_view operator[](std::size_t i) const { return mods_[i]; }
  bool has(std::string_view modifier) const;
  const std::string_view* begin() const { return mods_.data(); }
  const std::string_view* end() const { return mods_.data() + count_; }

 private:
  std::string_view base_;
  std::array<std::string_view, kMaxModifiers> mods_{};
  std::size_t count_ = 0;
};

// Bytes per thread a memory opcode accesses: .U8/.S8 1, .U16/.S16 2, default 4,
// .64/.U64/.S64/.F64 8, .128 16; LDSM/STSM move 16-byte matrix rows.
std::uint8_t memory_access_bytes(const OpcodeText& text);

// Registers written by the first destination (see DstRule).
std::uint8_t destination_registers(DstRule rule, const OpcodeText& text, std::uint8_t access_bytes);

}  // namespace sassim::isa
