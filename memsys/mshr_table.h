#pragma once
// Miss status holding registers: one entry per line with sectors in flight, the
// sectors requested so far, and the waiters to wake when sectors arrive. Entries and
// their waiter lists are reused, so a warm table never allocates; lines are found
// through a small open-addressing index (no search over the entries).
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
    std::uint32_t active_slot = 0;  // position in active()
    bool in_use = false;
    bool fill_allocates = true;  // the returning line is installed in the cache
    // Replacement priority of the installed line: the first of the allocating loads'
    // priorities that keeps it longest (normal over evict-first; evict-last over both).
    bool fill_evict_first = false;
    bool fill_evict_last = false;
    std::vector<Waiter> waiters;
  };
  static constexpr std::uint32_t kNone = ~0u;

  explicit MshrTable(std::uint32_t entries) : entries_(entries) {
    free_.reserve(entries);
    active_.reserve(entries);
    for (std::uint32_t i = entries; i-- > 0;) free_.push_back(i);
    std::size_t buckets = 4;
    while (buckets < 2 * std::size_t{entries}) buckets *= 2;
    index_.assign(buckets, kNone);
  }

  std::uint32_t capacity() const { return static_cast<std::uint32_t>(entries_.size()); }
  std::uint32_t in_use() const { return static_cast<std::uint32_t>(active_.size()); }
  bool full() const { return free_.empty(); }

  // Index of the entry for line, or kNone.
  std::uint32_t find(std::uint64_t line) const {
    for (std::size_t b = bucket(line);; b = (b + 1) & (index_.size() - 1)) {
      const std::uint32_t i = index_[b];
      if (i == kNone || entries_[i].line == line) return i;
    }
  }
  // A fresh entry for line. Requires !full().
  std::uint32_t allocate(std::uint64_t line, std::uint64_t now_ps) {
    assert(!free_.empty());
    std::uint32_t i = free_.back();
    free_.pop_back();
    Entry& e = entries_[i];
    e.active_slot = static_cast<std::uint32_t>(active_.size());
    active_.push_back(i);
    e.line = line;
    e.outstanding = 0;
    e.allocated_ps = now_ps;
    e.in_use = true;
    e.waiters.clear();
    std::size_t b = bucket(line);
    while (index_[b] != kNone) b = (b + 1) & (index_.size() - 1);
    index_[b] = i;
    return i;
  }
  void release(std::uint32_t index) {
    Entry& e = entries_[index];
    assert(e.in_use);
    e.in_use = false;
    e.waiters.clear();
    unindex(index, e.line);
    const std::uint32_t moved = active_.back();
    active_[e.active_slot] = moved;
    entries_[moved].active_slot = e.active_slot;
    active_.pop_back();
    free_.push_back(index);
  }
  Entry& operator[](std::uint32_t index) { return entries_[index]; }
  const Entry& operator[](std::uint32_t index) const { return entries_[index]; }
  // Indices of the entries in use (unordered).
  const std::vector<std::uint32_t>& active() const { return active_; }

 private:
  std::size_t bucket(std::uint64_t line) const {
    return static_cast<std::size_t>((line * 0x9e3779b97f4a7c15ull) >> 32) & (index_.size() - 1);
  }
  // Removes line from the index, shifting back later entries of its probe run so that
  // lookups never need tombstones.
  void unindex(std::uint32_t entry, std::uint64_t line) {
    const std::size_t mask = index_.size() - 1;
    std::size_t hole = bucket(line);
    while (index_[hole] != entry) hole = (hole + 1) & mask;
    index_[hole] = kNone;
    for (std::size_t b = (hole + 1) & mask; index_[b] != kNone; b = (b + 1) & mask) {
      const std::size_t home = bucket(entries_[index_[b]].line);
      // Move the entry into the hole when the hole lies on its probe path (home .. b).
      if (((b - home) & mask) >= ((b - hole) & mask)) {
        index_[hole] = index_[b];
        index_[b] = kNone;
        hole = b;
      }
    }
  }

  std::vector<Entry> entries_;
  std::vector<std::uint32_t> free_;
  std::vector<std::uint32_t> active_;
  std::vector<std::uint32_t> index_;  // open addressing: entry index per bucket, or kNone
};

}  // namespace sassim::memsys
