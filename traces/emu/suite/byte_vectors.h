// A device buffer's bytes read as, or written from, a vector of T (the suite's input
// filling and output checks).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

namespace sassim::emu {

template <typename T>
std::vector<T> read_as(const std::vector<uint8_t>& bytes) {
  std::vector<T> v(bytes.size() / sizeof(T));
  std::memcpy(v.data(), bytes.data(), v.size() * sizeof(T));
  return v;
}

// Writes as much of v as the buffer holds.
template <typename T>
void write_as(std::vector<uint8_t>& bytes, const std::vector<T>& v) {
  std::memcpy(bytes.data(), v.data(), std::min(bytes.size(), v.size() * sizeof(T)));
}

}  // namespace sassim::emu
