#pragma once
// Allocation-free tokenizing and number parsing for trace text (std::from_chars; no
// iostreams, no locale). Every parser returns nullopt on malformed input; callers
// turn that into an error that names the file, the line and what was expected.
#include <charconv>
#include <cstdint>
#include <optional>
#include <string_view>
#include <system_error>

namespace sassim::traces {

inline bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r';
}

inline std::string_view trim(std::string_view s) {
  while (!s.empty() && is_blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
  return s;
}

// Splits a line into blank-separated tokens.
class TokenCursor {
 public:
  explicit TokenCursor(std::string_view line) : p_(line.data()), end_(line.data() + line.size()) {}

  // The next token, or an empty view at the end of the line.
  std::string_view next() {
    while (p_ != end_ && is_blank(*p_)) ++p_;
    const char* start = p_;
    while (p_ != end_ && !is_blank(*p_)) ++p_;
    return {start, static_cast<std::size_t>(p_ - start)};
  }
  bool at_end() {
    while (p_ != end_ && is_blank(*p_)) ++p_;
    return p_ == end_;
  }

 private:
  const char* p_;
  const char* end_;
};

template <typename T>
std::optional<T> parse_number(std::string_view s, int base) {
  T value{};
  const char* end = s.data() + s.size();
  auto [ptr, ec] = std::from_chars(s.data(), end, value, base);
  if (s.empty() || ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

inline std::optional<std::uint64_t> parse_dec_u64(std::string_view s) {
  return parse_number<std::uint64_t>(s, 10);
}
inline std::optional<std::uint32_t> parse_dec_u32(std::string_view s) {
  return parse_number<std::uint32_t>(s, 10);
}
inline std::optional<std::int64_t> parse_dec_i64(std::string_view s) {
  return parse_number<std::int64_t>(s, 10);
}
// Hexadecimal with or without a 0x prefix ("0x7f2b2d500000", "00a8", "ffffffff").
inline std::optional<std::uint64_t> parse_hex_u64(std::string_view s) {
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s.remove_prefix(2);
  return parse_number<std::uint64_t>(s, 16);
}
inline std::optional<std::uint32_t> parse_hex_u32(std::string_view s) {
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s.remove_prefix(2);
  return parse_number<std::uint32_t>(s, 16);
}

}  // namespace sassim::traces
