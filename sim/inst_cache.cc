#include "sim/inst_cache.h"

#include <algorithm>

#include <fmt/format.h>

#include "ground/error.h"

namespace sassim::sim {

InstCache::InstCache(std::uint32_t size_bytes, std::uint32_t line_bytes,
                     std::uint32_t associativity)
    : line_bytes_(std::max<std::uint32_t>(line_bytes, 1)),
      ways_(std::max<std::uint32_t>(associativity, 1)) {
  if (size_bytes == 0) return;
  if (size_bytes % (line_bytes_ * ways_) != 0) {
    throw Error(fmt::format(
        "instruction cache of {} bytes: expected a multiple of line bytes x ways ({} x {})",
        size_bytes, line_bytes_, ways_));
  }
  sets_ = size_bytes / (line_bytes_ * ways_);
  lines_.resize(std::size_t{sets_} * ways_);
}

std::optional<std::uint64_t> InstCache::lookup(std::uint64_t address) {
  if (sets_ == 0) return std::nullopt;
  const std::uint64_t line = address / line_bytes_;
  Way* set = &lines_[(line % sets_) * ways_];
  for (std::uint32_t w = 0; w < ways_; ++w) {
    if (set[w].tag == line) {
      set[w].last_use = ++uses_;
      return set[w].ready;
    }
  }
  return std::nullopt;
}

void InstCache::fill(std::uint64_t address, std::uint64_t ready_cycle) {
  if (sets_ == 0) return;
  const std::uint64_t line = address / line_bytes_;
  Way* set = &lines_[(line % sets_) * ways_];
  Way* victim = set;
  for (std::uint32_t w = 1; w < ways_; ++w) {
    if (set[w].last_use < victim->last_use) victim = &set[w];
  }
  victim->tag = line;
  victim->ready = ready_cycle;
  victim->last_use = ++uses_;
}

}  // namespace sassim::sim
