#include "traces/trace_error.h"

#include <fmt/format.h>

#include "ground/error.h"

// GCC 12 at -O3 reports a false -Wrestrict inside std::string's inlined copy here
// (GCC bug 105329); the code copies between distinct buffers.
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ == 12
#pragma GCC diagnostic ignored "-Wrestrict"
#endif

namespace sassim::traces {

void throw_at(std::string_view file, std::uint64_t line, std::string_view message) {
  throw Error(fmt::format("{}:{}: {}", file, line, message));
}

void throw_at(const LineSource& lines, std::string_view message) {
  throw_at(lines.name(), lines.line_number(), message);
}

std::string_view excerpt(std::string_view line) {
  constexpr std::size_t kMax = 120;
  return line.size() <= kMax ? line : line.substr(0, kMax);
}

}  // namespace sassim::traces
