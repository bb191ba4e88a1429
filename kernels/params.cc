#include "kernels/params.h"

#include <charconv>
#include <stdexcept>
#include <string>

namespace sassim::kernels {

namespace {

uint32_t parse(ParamValues values, size_t index, uint32_t fallback, std::string_view what,
               bool allow_zero) {
  if (index >= values.size()) return fallback;
  const std::string_view text = values[index];
  uint32_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || end != text.data() + text.size() || (value == 0 && !allow_zero)) {
    throw std::invalid_argument(std::string(what) + ": expected a " +
                                (allow_zero ? "" : "positive ") + "32-bit number, found '" +
                                std::string(text) + "'");
  }
  return value;
}

}  // namespace

uint32_t param_u32(ParamValues values, size_t index, uint32_t fallback, std::string_view what) {
  return parse(values, index, fallback, what, false);
}

uint32_t param_count(ParamValues values, size_t index, uint32_t fallback, std::string_view what) {
  return parse(values, index, fallback, what, true);
}

void require_multiple(uint64_t value, uint64_t multiple, std::string_view what) {
  if (value % multiple != 0) {
    throw std::invalid_argument(std::string(what) + " (" + std::to_string(value) +
                                ") must be a multiple of " + std::to_string(multiple));
  }
}

void require_at_most(ParamValues values, size_t count, std::string_view kernel) {
  if (values.size() > count) {
    throw std::invalid_argument(std::string(kernel) + " takes at most " + std::to_string(count) +
                                " values, found " + std::to_string(values.size()));
  }
}

}  // namespace sassim::kernels
