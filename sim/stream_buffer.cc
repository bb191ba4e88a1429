#include "sim/stream_buffer.h"

#include <algorithm>

namespace sassim::sim {

std::optional<std::uint64_t> StreamBuffer::take(std::uint64_t line) {
  const auto size = static_cast<std::uint32_t>(lines_.size());
  for (std::uint32_t k = 0; k < count_; ++k) {
    const Entry& e = lines_[(head_ + k) % size];
    if (e.line != line) continue;
    const std::uint64_t ready = e.ready;
    head_ = (head_ + k + 1) % size;
    count_ -= k + 1;
    return ready;
  }
  return std::nullopt;
}

void StreamBuffer::restart(std::uint64_t line, std::uint64_t cycle) {
  head_ = 0;
  count_ = 0;
  next_line_ = line + 1;
  next_request_ = cycle + 1;
}

std::uint64_t StreamBuffer::request_cycle(std::uint64_t cycle) const {
  return std::max(cycle, next_request_);
}

void StreamBuffer::requested(std::uint64_t request_cycle, std::uint64_t ready) {
  const auto size = static_cast<std::uint32_t>(lines_.size());
  lines_[(head_ + count_) % size] = Entry{next_line_, ready};
  ++count_;
  ++next_line_;
  next_request_ = request_cycle + 1;
}

}  // namespace sassim::sim
