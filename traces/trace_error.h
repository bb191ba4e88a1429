#pragma once
// Errors in trace input: every message names the file and the line ("kernel-3.traceg:7:
// -nregs = 21955: expected 1..255 registers per thread").
#include <cstdint>
#include <string_view>

#include "traces/line_source.h"

namespace sassim::traces {

// Throws sassim::Error("<file>:<line>: <message>").
[[noreturn]] void throw_at(std::string_view file, std::uint64_t line, std::string_view message);
// At the last line read from `lines`.
[[noreturn]] void throw_at(const LineSource& lines, std::string_view message);

// A line shortened for quoting in a message.
std::string_view excerpt(std::string_view line);

}  // namespace sassim::traces
