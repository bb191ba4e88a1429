// Comparison of a kernel's output with its CPU reference, for `sassim capture --check`.
#pragma once

#include <string_view>
#include <vector>

#include "traces/emu/suite/suite_io.h"

namespace sassim::emu {

// ok when every |got - want| <= abs + rel * |want| and the sizes agree; the message is
// "WHAT: N of M values match the CPU reference", after the first mismatch if any.
SuiteCheck compare_values(const std::vector<float>& got, const std::vector<float>& want, double rel,
                          double abs, std::string_view what);

// ok when every |got - want| <= tolerance (one per value) and the sizes agree; the same
// message.
SuiteCheck compare_values(const std::vector<float>& got, const std::vector<float>& want,
                          const std::vector<double>& tolerance, std::string_view what);

}  // namespace sassim::emu
