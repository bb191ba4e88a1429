#pragma once
// Miss status holding registers: one entry per line with sectors in flight, the
// sectors requested so far, and the waiters to wake when sectors arrive. Entries and
// their waiter lists are reused, so a warm table never allocates.
#include <cassert>
#include <cstdint>
#include <vector>

namespace sassim::memsys {

template <typename Waiter>
class MshrTable {
 public:
  struct Entry {
    std::uint64_t line = 0;
    std::uint32_t outstanding = 0;  // sectors requested and not yet returned
    std::uint64_t allocated_ps = 0;
    bool in_use = false;
    std::vector<Waiter> waiters;
  };
  static constexpr std::uint32_t kNone = ~0u;

  explicit MshrTable(std::uint32_t entries) : entries_(entries) {
    free_.reserve(entries);
    active_.reserve(entries);
    for (std::uint32_t i = entries; i-- > 0;) free_.push_back(i);
  }

  std::uint32_t capacity() const { return static_cast<std::uint32_t>(entries_.size()); }
  std::uint32_t in_use() const { return static_cast<std::uint32_t>(active_.size()); }
  bool full() const { return free_.empty(); }

  // Index of the entry for line, or kNone.
  std::uint32_t find(std::uint64_t line) const {
    for (std::uint32_t i : active_) {
      if (entries_[i].line == line) return i;
    }
    return kNone;
  }
  // A fresh entry for line. Requires !full().
  std::uint32_t allocate(std::uint64_t line, std::uint64_t now_ps) {
    assert(!free_.empty());
    std::uint32_t i = free_.back();
    free_.pop_back();
    active_.push_back(i);
    Entry& e = entries_[i];
    e.line = line;
    e.outstanding = 0;
    e.allocated_ps = now_ps;
    e.in_use = true;
    e.waiters.clear();
    return i;
  }
  void release(std::uint32_t index) {
    Entry& e = entries_[index];
    assert(e.in_use);
    e.in_use = false;
    e.waiters.clear();
    for (std::size_t k = 0; k < active_.size(); ++k) {
      if (active_[k] == index) {
        active_[k] = active_.back();
        active_.pop_back();
        break;
      }
    }
    free_.push_back(index);
  }
  Entry& operator[](std::uint32_t index) { return entries_[index]; }
  const Entry& operator[](std::uint32_t index) const { return entries_[index]; }
  // Indices of the entries in use (unordered).
  const std::vector<std::uint32_t>& active() const { return active_; }

 private:
  std::vector<Entry> entries_;
  std::vector<std::uint32_t> free_;
  std::vector<std::uint32_t> active_;
};

}  // namespace sassim::memsys
