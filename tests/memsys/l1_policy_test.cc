// The L1's replacement priorities from load cache operators (isa::L1Policy), in a full
// memory system: small_config()'s L1 data part has 64 sets of 4 ways of 128-byte lines,
// so lines 8 KiB apart share a set.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "isa/opcode.h"
#include "memsys_test_support.h"

namespace sassim::memsys {
namespace {

using isa::L1Policy;
using testing::Rig;
using testing::small_config;
using testing::strided;

using testing::kCycle;
constexpr Picos kHit = 20 * kCycle;  // small_config()'s L1 hit latency
constexpr std::uint64_t kSetStride = 64 * 128;

std::uint64_t line_in_set(int k) {
  return 0x10000 + static_cast<std::uint64_t>(k) * kSetStride;
}

class L1Policies : public ::testing::Test {
 protected:
  // Runs one whole-line load of line_in_set(k) with `policy` to completion; returns its
  // latency.
  Picos load(int k, L1Policy policy = L1Policy::kNormal) {
    testing::MockSm& sm = rig_.sm(0);
    sm.load_with_policy(rig_.now(), ++token_, strided(line_in_set(k), 4), policy);
    rig_.run();
    return sm.latency(token_);
  }
  Rig rig_{small_config()};
  std::uint32_t token_ = 0;
};

TEST_F(L1Policies, OrdinaryLoadsEvictTheLeastRecentlyUsedLine) {
  for (int k = 0; k < 5; ++k) load(k);  // line 4 evicts line 0
  EXPECT_EQ(load(1), kHit);
  EXPECT_GT(load(0), kHit);
}

TEST_F(L1Policies, AnEvictFirstLineIsTheNextVictimOfItsSet) {
  load(0);
  load(1, L1Policy::kEvictFirst);
  load(2);
  load(3);
  load(4);  // evicts line 1 (evict-first), not line 0 (least recently used)
  EXPECT_EQ(load(0), kHit);
  EXPECT_GT(load(1), kHit);
}

TEST_F(L1Policies, AnEvictFirstHitDemotesTheLine) {
  for (int k = 0; k < 4; ++k) load(k);
  EXPECT_EQ(load(3, L1Policy::kEvictFirst), kHit);  // the newest line becomes the victim
  load(4);
  EXPECT_EQ(load(0), kHit);
  EXPECT_GT(load(3), kHit);
}

TEST_F(L1Policies, AnEvictLastLineStaysWhileOthersCanGo) {
  load(0, L1Policy::kEvictLast);
  for (int k = 1; k < 5; ++k) load(k);  // line 4 evicts line 1, not line 0
  EXPECT_EQ(load(0), kHit);
  EXPECT_GT(load(1), kHit);
}

TEST_F(L1Policies, NoAllocateHitsButDoesNotInstall) {
  EXPECT_GT(load(0, L1Policy::kNoAllocate), kHit);
  EXPECT_GT(load(0), kHit);  // not installed by the no-allocate miss
  EXPECT_EQ(load(0, L1Policy::kNoAllocate), kHit);
}

TEST_F(L1Policies, LastUseReadsAHitAndDropsIt) {
  load(0);
  EXPECT_EQ(load(0, L1Policy::kLastUse), kHit);
  EXPECT_GT(load(0), kHit);
  EXPECT_GT(load(1, L1Policy::kLastUse), kHit);
  EXPECT_GT(load(1), kHit);  // a last-use miss does not install the line
}

}  // namespace
}  // namespace sassim::memsys
