#include "memsys/sector_cache.h"

#include <cassert>

#include <fmt/format.h>

#include "ground/error.h"

namespace sassim::memsys {

SectorCache::SectorCache(std::uint64_t capacity_bytes, std::uint32_t associativity,
                         std::uint32_t line_bytes, std::uint32_t set_divisor,
                         const std::string& what, SetIndex set_index)
    : set_divisor_(set_divisor == 0 ? 1 : set_divisor) {
  if (capacity_bytes == 0) return;
  const std::uint64_t set_bytes = std::uint64_t{line_bytes} * associativity;
  if (associativity == 0 || set_bytes == 0 || capacity_bytes % set_bytes != 0) {
    throw Error(fmt::format(
        "{}: capacity {} bytes is not a whole number of sets of {} ways x {}-byte lines", what,
        capacity_bytes, associativity, line_bytes));
  }
  sets_ = capacity_bytes / set_bytes;
  xor_sets_ = set_index == SetIndex::kXor && sets_ > 1;  // one set: nothing to spread
  set_bits_ = xor_fold_bits(sets_);
  ways_ = associativity;
  active_ways_ = associativity;
  lines_.resize(sets_ * ways_);
  tags_.resize(sets_ * ways_, 0);
  ranks_.resize(sets_ * ways_, 0);
  indexed_ = ways_ > kScannedWays;
  if (indexed_) index_ = LineIndex(sets_ * ways_);
  groups_ = (ways_ + kGroupWays - 1) / kGroupWays;
  grouped_ = indexed_ && groups_ <= 64;
  if (grouped_) {
    group_min_.resize(sets_ * groups_);
    group_dirty_.assign(sets_, ~std::uint64_t{0});
  }
}

void SectorCache::set_active_ways(std::uint32_t ways, bool drop_all) {
  if (sets_ == 0) return;
  if (ways == 0 || ways > ways_) {
    throw Error(fmt::format("cache: {} active ways requested, it has 1 to {}", ways, ways_));
  }
  for (std::uint64_t set = 0; set < sets_; ++set) {
    for (std::size_t w = drop_all ? 0 : ways; w < active_ways_; ++w) {
      const std::size_t i = set * ways_ + w;
      if (indexed_ && lines_[i].present) index_.erase(lines_[i].line);
      lines_[i] = Line{};
      tags_[i] = 0;
      ranks_[i] = 0;
    }
  }
  active_ways_ = ways;
  for (std::uint64_t& dirty : group_dirty_) dirty = ~std::uint64_t{0};
}

SectorCache::Line* SectorCache::find(std::uint64_t line) {
  return const_cast<Line*>(static_cast<const SectorCache*>(this)->find(line));
}

const SectorCache::Line* SectorCache::find(std::uint64_t line) const {
  if (sets_ == 0) return nullptr;
  if (indexed_) {
    const std::uint32_t slot = index_.find(line);
    return slot == LineIndex::kAbsent ? nullptr : &lines_[slot];
  }
  const std::size_t base = set_of(line) * ways_;
  const std::uint64_t tag = line + 1;
  for (std::size_t w = 0; w < active_ways_; ++w) {
    if (tags_[base + w] == tag) return &lines_[base + w];
  }
  return nullptr;
}

std::size_t SectorCache::victim_index(std::uint64_t set) const {
  // The first empty way; else the least recently used line that is not evict-last (the
  // first of equals); else the least recently used evict-last line: the smallest rank.
  const std::size_t base = set * ways_;
  const std::uint64_t* ranks = ranks_.data() + base;
  if (!grouped_) {
    std::size_t best = 0;
    for (std::size_t w = 1; w < active_ways_; ++w) {
      if (ranks[w] < ranks[best]) best = w;
    }
    return base + best;
  }
  const std::uint32_t groups = (active_ways_ + kGroupWays - 1) / kGroupWays;
  GroupMin* mins = group_min_.data() + set * groups_;
  for (std::uint64_t dirty = group_dirty_[set]; dirty != 0; dirty &= dirty - 1) {
    const auto g = static_cast<std::uint32_t>(std::countr_zero(dirty));
    if (g >= groups) break;
    const std::uint32_t end = std::min(active_ways_, (g + 1) * kGroupWays);
    std::uint32_t best = g * kGroupWays;
    for (std::uint32_t w = best + 1; w < end; ++w) {
      if (ranks[w] < ranks[best]) best = w;
    }
    mins[g] = GroupMin{ranks[best], best};
  }
  group_dirty_[set] = 0;
  std::uint32_t best = 0;
  for (std::uint32_t g = 1; g < groups; ++g) {
    if (mins[g].rank < mins[best].rank) best = g;
  }
  return base + mins[best].way;
}

SectorCache::Victim SectorCache::victim_for(std::uint64_t line) const {
  if (sets_ == 0) return {};
  const Line& l = lines_[victim_index(set_of(line))];
  return l.present ? Victim{true, l.line, l.dirty} : Victim{};
}

SectorCache::Line& SectorCache::allocate(std::uint64_t line, Victim* evicted) {
  assert(sets_ > 0 && find(line) == nullptr);
  const std::size_t index = victim_index(set_of(line));
  Line& l = lines_[index];
  if (evicted != nullptr) *evicted = l.present ? Victim{true, l.line, l.dirty} : Victim{};
  if (indexed_) {
    if (l.present) index_.erase(l.line);
    index_.insert(line, static_cast<std::uint32_t>(index));
  }
  l = Line{line, ++use_clock_, 0, 0, true, false};
  tags_[index] = line + 1;
  set_rank(index, rank_of(l));
  return l;
}

void SectorCache::erase(std::uint64_t line) {
  const Line* found = find(line);
  if (found == nullptr) return;
  const auto i = static_cast<std::size_t>(found - lines_.data());
  if (indexed_) index_.erase(line);
  lines_[i] = Line{};
  tags_[i] = 0;
  set_rank(i, 0);
}

}  // namespace sassim::memsys
