#pragma once
// A sectored, set-associative tag array with LRU replacement: the state of the L1
// data cache and of each L2 slice (data values are not modelled). A line is present
// when allocated; each sector of it is valid (holds data) and/or dirty (written, for
// write-back caches; a partially written sector can be dirty without being valid).
#include <cstdint>
#include <string>
#include <vector>

#include "memsys/line_index.h"
#include "memsys/xor_fold.h"

namespace sassim::memsys {

class SectorCache {
 public:
  struct Line {
    std::uint64_t line = 0;  // line index (byte address / line_bytes)
    std::uint64_t last_use = 0;
    std::uint32_t valid = 0;
    std::uint32_t dirty = 0;
    bool present = false;
    bool evict_last = false;  // a victim only when every way of its set is evict-last
  };
  // What allocate() throws out.
  struct Victim {
    bool present = false;
    std::uint64_t line = 0;
    std::uint32_t dirty = 0;
  };

  // capacity_bytes may be 0 (no cache: nothing is ever present). Otherwise it must be
  // a multiple of line_bytes * associativity; throws sassim::Error naming `what`.
  // Lines map to sets by their local index L = line / set_divisor (a slice of an
  // interleaved cache passes the number of slices so that its own lines use every set):
  // SetIndex::kLinear: L % sets. SetIndex::kXor: the XOR-fold of memsys/xor_fold.h, so
  // that lines a multiple of the set count apart spread over the sets while each aligned
  // group of `sets` local lines still covers every set once.
  enum class SetIndex { kLinear, kXor };
  SectorCache(std::uint64_t capacity_bytes, std::uint32_t associativity, std::uint32_t line_bytes,
              std::uint32_t set_divisor, const std::string& what,
              SetIndex set_index = SetIndex::kLinear);

  bool enabled() const { return sets_ > 0; }
  std::uint64_t sets() const { return sets_; }
  std::uint32_t ways() const { return active_ways_; }
  // Uses only the first `ways` ways of each set (1 <= ways <= the associativity given at
  // construction), dropping the lines held in the others: the L1 data part of a unified
  // array whose shared-memory carve-out changes. Dirty lines dropped are not written back.
  // With drop_all, every line is dropped (an invalidation of the whole cache).
  void set_active_ways(std::uint32_t ways, bool drop_all = false);

  // The line if present (no LRU update).
  Line* find(std::uint64_t line);
  const Line* find(std::uint64_t line) const;
  // Marks a line most recently used.
  void touch(Line& line) {
    line.last_use = ++use_clock_;
    rank(line);
  }
  // Makes a line the next victim of its set (evict-first): the least recently used.
  void demote(Line& line) {
    line.last_use = 0;
    rank(line);
  }
  // Makes a line a victim only when every way of its set is evict-last.
  void keep_last(Line& line) {
    line.evict_last = true;
    rank(line);
  }
  // The line allocate(line) would evict (an absent victim when a way is free).
  Victim victim_for(std::uint64_t line) const;
  // Allocates an absent line (evicting the LRU way), marks it most recently used and
  // returns it with no valid or dirty sectors. Requires enabled() and !find(line).
  Line& allocate(std::uint64_t line, Victim* evicted);
  // Drops a line if present (its dirty sectors are lost: callers drop only clean copies).
  void erase(std::uint64_t line);

 private:
  std::uint64_t set_of(std::uint64_t line) const {
    const std::uint64_t local = line / set_divisor_;
    return xor_sets_ ? xor_fold_index(local, sets_, set_bits_) : local % sets_;
  }
  std::size_t victim_index(std::uint64_t set) const;
  // Sets the line's replacement rank from its state.
  void rank(const Line& line) {
    set_rank(static_cast<std::size_t>(&line - lines_.data()), rank_of(line));
  }
  void set_rank(std::size_t i, std::uint64_t rank) {
    ranks_[i] = rank;
    if (grouped_) group_dirty_[i / ways_] |= std::uint64_t{1} << (i % ways_ / kGroupWays);
  }
  static std::uint64_t rank_of(const Line& line) {
    if (!line.present) return 0;
    return (std::uint64_t{line.evict_last} << 63) | (line.last_use + 1);
  }
  // Sets wider than this are looked up through index_ instead of by scanning tags_.
  static constexpr std::uint32_t kScannedWays = 32;

  std::uint64_t sets_ = 0;
  std::uint32_t ways_ = 0;         // ways per set in the arrays (the stride)
  std::uint32_t active_ways_ = 0;  // ways looked up and allocated
  std::uint32_t set_divisor_ = 1;
  bool xor_sets_ = false;
  std::uint32_t set_bits_ = 1;  // xor_fold_bits(sets_)
  std::uint64_t use_clock_ = 0;
  std::vector<Line> lines_;          // sets_ x ways_
  std::vector<std::uint64_t> tags_;  // line + 1 of each way (0: empty), scanned by find()
  // Replacement rank of each way, the smallest the victim (first of equals): 0 empty;
  // else bit 63 evict-last, below it last_use + 1.
  std::vector<std::uint64_t> ranks_;
  bool indexed_ = false;  // ways_ > kScannedWays: find() uses index_
  LineIndex index_;
  // Wide sets (indexed_, at most 64 groups): the ways in groups of kGroupWays, each
  // group's least rank and its first way kept, a group scanned again only after a rank
  // in it changed, so a victim costs the changed groups and one look at each group.
  static constexpr std::uint32_t kGroupWays = 64;
  struct GroupMin {
    std::uint64_t rank = 0;
    std::uint32_t way = 0;
  };
  bool grouped_ = false;
  std::uint32_t groups_ = 0;                        // per set
  mutable std::vector<GroupMin> group_min_;         // sets_ x groups_
  mutable std::vector<std::uint64_t> group_dirty_;  // by set: a bit per group
};

}  // namespace sassim::memsys
