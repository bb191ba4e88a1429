// Wide sets (looked up through LineIndex, victims by rank) against a plain model of the
// replacement rule: the first empty way; else the least recently used way that is not
// evict-last, first of equals; else the least recently used evict-last way.
#include <cstdint>
#include <map>
#include <random>
#include <unordered_map>
#include <vector>

#include <gtest/gtest.h>

#include "memsys/line_index.h"
#include "memsys/sector_cache.h"

namespace sassim::memsys {
namespace {

struct Way {
  bool present = false;
  std::uint64_t line = 0, last_use = 0;
  bool evict_last = false;
};

// The rule, written out with one set of `ways` ways per set index.
class ModelCache {
 public:
  ModelCache(std::uint64_t sets, std::uint32_t ways) : sets_(sets), ways_(ways), w_(sets * ways) {}
  Way* find(std::uint64_t line) {
    for (std::uint32_t i = 0; i < active_; ++i) {
      Way& w = at(line, i);
      if (w.present && w.line == line) return &w;
    }
    return nullptr;
  }
  Way& victim(std::uint64_t line) {
    Way* best = nullptr;
    for (std::uint32_t i = 0; i < active_; ++i) {
      Way& w = at(line, i);
      if (!w.present) return w;
      if (best == nullptr || (best->evict_last && !w.evict_last) ||
          (best->evict_last == w.evict_last && w.last_use < best->last_use))
        best = &w;
    }
    return best != nullptr ? *best : w_.front();
  }
  Way& allocate(std::uint64_t line) {
    Way& w = victim(line);
    w = Way{true, line, ++clock_, false};
    return w;
  }
  void touch(Way& w) { w.last_use = ++clock_; }
  void set_active(std::uint32_t ways) {
    for (std::uint64_t s = 0; s < sets_; ++s)
      for (std::uint32_t i = ways; i < active_; ++i) w_[s * ways_ + i] = Way{};
    active_ = ways;
  }
  std::uint32_t active_ = 0;

 private:
  Way& at(std::uint64_t line, std::uint32_t i) { return w_[(line % sets_) * ways_ + i]; }
  std::uint64_t sets_;
  std::uint32_t ways_;
  std::vector<Way> w_;
  std::uint64_t clock_ = 0;
};

TEST(SectorCacheWide, MatchesTheReplacementRuleOverRandomOperations) {
  const std::uint64_t sets = 4;
  const std::uint32_t ways = 96;  // wider than the scanned sets
  SectorCache cache(sets * ways * 128, ways, 128, 1, "test");
  ModelCache model(sets, ways);
  model.active_ = ways;
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<std::uint64_t> pick(0, 1500);
  int evictions = 0;
  for (int op = 0; op < 200000; ++op) {
    const std::uint64_t line = pick(rng);
    SectorCache::Line* got = cache.find(line);
    Way* want = model.find(line);
    ASSERT_EQ(got != nullptr, want != nullptr) << "op " << op << " line " << line;
    const int kind = static_cast<int>(rng() % 16);
    if (got == nullptr) {
      const SectorCache::Victim v = cache.victim_for(line);
      const Way& mv = model.victim(line);
      ASSERT_EQ(v.present, mv.present) << "op " << op;
      if (v.present) {
        ASSERT_EQ(v.line, mv.line) << "op " << op;
      }
      evictions += v.present;
      cache.allocate(line, nullptr);
      model.allocate(line);
    } else if (kind < 10) {
      cache.touch(*got);
      model.touch(*want);
    } else if (kind < 12) {
      cache.demote(*got);
      want->last_use = 0;
    } else if (kind < 13) {
      cache.keep_last(*got);
      want->evict_last = true;
    } else if (kind < 15) {
      cache.erase(line);
      *want = Way{};
    } else if (op % 97 == 0) {
      const std::uint32_t active = 1 + static_cast<std::uint32_t>(rng() % ways);
      cache.set_active_ways(active);
      model.set_active(active);
    }
  }
  EXPECT_GT(evictions, 10000);
}

TEST(LineIndex, FindsWhatWasInsertedAcrossCollisionsAndErasures) {
  LineIndex index(64);  // 128 entries: long probe runs at up to 64 keys
  std::unordered_map<std::uint64_t, std::uint32_t> model;
  std::mt19937_64 rng(3);
  for (int op = 0; op < 100000; ++op) {
    const std::uint64_t line = rng() % 200;
    const bool present = model.count(line) != 0;
    if (!present && model.size() < 64) {
      const auto slot = static_cast<std::uint32_t>(op);
      index.insert(line, slot);
      model[line] = slot;
    } else if (present) {
      index.erase(line);
      model.erase(line);
    }
    const std::uint64_t probe = rng() % 200;
    const auto it = model.find(probe);
    ASSERT_EQ(index.find(probe), it == model.end() ? LineIndex::kAbsent : it->second)
        << "op " << op;
  }
  index.erase(12345);  // absent: nothing happens
  EXPECT_EQ(index.find(12345), LineIndex::kAbsent);
}

}  // namespace
}  // namespace sassim::memsys
