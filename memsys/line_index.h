#pragma once
// Where each present line of a sectored cache sits: an open-addressing hash table
// (linear probing, deletion by backward shift) from line index to its slot in the
// cache's arrays, for caches whose sets are too wide to scan on every lookup (the
// unified L1 has sets of hundreds of ways).
#include <bit>
#include <cstdint>
#include <vector>

namespace sassim::memsys {

class LineIndex {
 public:
  static constexpr std::uint32_t kAbsent = ~std::uint32_t{0};

  LineIndex() = default;
  // Room for `lines` entries at a load of at most one half.
  explicit LineIndex(std::uint64_t lines)
      : mask_(std::bit_ceil(lines * 2 < 16 ? 16 : lines * 2) - 1),
        keys_(mask_ + 1, 0),
        slots_(mask_ + 1, kAbsent) {}

  std::uint32_t find(std::uint64_t line) const {
    const std::uint64_t key = line + 1;
    for (std::uint64_t i = home(key);; i = (i + 1) & mask_) {
      if (keys_[i] == key) return slots_[i];
      if (keys_[i] == 0) return kAbsent;
    }
  }
  // Requires the line to be absent.
  void insert(std::uint64_t line, std::uint32_t slot) {
    const std::uint64_t key = line + 1;
    std::uint64_t i = home(key);
    while (keys_[i] != 0) i = (i + 1) & mask_;
    keys_[i] = key;
    slots_[i] = slot;
  }
  // Removes the line if present.
  void erase(std::uint64_t line) {
    const std::uint64_t key = line + 1;
    std::uint64_t i = home(key);
    while (keys_[i] != key) {
      if (keys_[i] == 0) return;
      i = (i + 1) & mask_;
    }
    // Backward shift: move later entries of the probe run into the hole when their home
    // position allows it, so that no lookup stops early at the hole.
    for (std::uint64_t j = (i + 1) & mask_; keys_[j] != 0; j = (j + 1) & mask_) {
      // The entry may fill the hole when its home is not after the hole on its run.
      const std::uint64_t from_home = (j - home(keys_[j])) & mask_;
      if (from_home >= ((j - i) & mask_)) {
        keys_[i] = keys_[j];
        slots_[i] = slots_[j];
        i = j;
      }
    }
    keys_[i] = 0;
    slots_[i] = kAbsent;
  }

 private:
  std::uint64_t home(std::uint64_t key) const {
    return (key * 0x9E3779B97F4A7C15ull >> 20) & mask_;
  }

  std::uint64_t mask_ = 0;
  std::vector<std::uint64_t> keys_;  // line + 1 (0: empty)
  std::vector<std::uint32_t> slots_;
};

}  // namespace sassim::memsys
