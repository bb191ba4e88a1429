// Problem sizes of a suite kernel from the values after its name on a suite line
// (kernels/suite.txt: NAME BINARY KERNEL [VALUE...]); missing values take defaults.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace sassim::kernels {

using ParamValues = std::span<const std::string_view>;

// values[index] as an unsigned 32-bit number, or `fallback` when there are fewer values.
// Throws std::invalid_argument naming `what` when the value is not a number or is 0.
uint32_t param_u32(ParamValues values, size_t index, uint32_t fallback, std::string_view what);
// The same, allowing 0.
uint32_t param_count(ParamValues values, size_t index, uint32_t fallback, std::string_view what);

// Throws std::invalid_argument "WHAT (VALUE) must be a multiple of MULTIPLE".
void require_multiple(uint64_t value, uint64_t multiple, std::string_view what);

// Throws std::invalid_argument when there are more than `count` values.
void require_at_most(ParamValues values, size_t count, std::string_view kernel);

}  // namespace sassim::kernels
