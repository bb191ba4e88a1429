#pragma once
// A tag-only, set-associative, LRU instruction cache. Each line remembers the cycle
// its data arrives, so a fetch that hits a line still being filled waits for it.
#include <cstdint>
#include <optional>
#include <vector>

namespace sassim::sim {

class InstCache {
 public:
  InstCache() = default;
  // size_bytes 0 = no cache (every lookup misses, nothing is kept).
  InstCache(std::uint32_t size_bytes, std::uint32_t line_bytes, std::uint32_t associativity);

  bool present() const { return sets_ != 0; }
  // The cycle the line holding `address` has its data, or nullopt on a miss. A hit
  // makes the line most recently used.
  std::optional<std::uint64_t> lookup(std::uint64_t address);
  // Installs the line holding `address`, its data arriving at `ready_cycle`, in place
  // of the least recently used line of its set.
  void fill(std::uint64_t address, std::uint64_t ready_cycle);

 private:
  struct Way {
    std::uint64_t tag = ~std::uint64_t{0};  // line number; all ones = invalid
    std::uint64_t ready = 0;
    std::uint64_t last_use = 0;
  };
  std::uint32_t line_bytes_ = 128, ways_ = 1, sets_ = 0;
  std::uint64_t uses_ = 0;
  std::vector<Way> lines_;  // sets_ x ways_
};

}  // namespace sassim::sim
