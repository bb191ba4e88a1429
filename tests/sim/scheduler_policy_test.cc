// Issue order of each warp scheduler policy, driven directly.
#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "ground/error.h"
#include "sim/scheduler_policy.h"

namespace sassim::sim {
namespace {

std::unique_ptr<SchedulerPolicy> make(const char* name, unsigned group_size = 8) {
  config::SchedulerConfig c;
  c.set_policy(name);
  c.set_group_size(group_size);
  return make_scheduler_policy(c);
}

// Picks `n` times from a fixed ready set, reporting each pick as issued.
std::vector<unsigned> order(SchedulerPolicy& p, std::uint64_t ready,
                            std::span<const std::uint64_t> ages, int n) {
  std::vector<unsigned> out;
  for (int i = 0; i < n; ++i) {
    out.push_back(p.pick(ready, ages));
    p.issued(out.back());
  }
  return out;
}

constexpr std::array<std::uint64_t, 4> kAges = {5, 9, 7, 1};  // warp 3 is the oldest

TEST(SchedulerPolicy, GreedyThenOldestSticksThenTakesTheOldest) {
  auto p = make("gto");
  EXPECT_EQ(order(*p, 0b1111, kAges, 3), (std::vector<unsigned>{3, 3, 3}));
  EXPECT_EQ(p->pick(0b0111, kAges), 0U);  // warp 3 stalls: oldest of the rest
}

TEST(SchedulerPolicy, GreedyThenYoungestSticksThenTakesTheYoungest) {
  auto p = make("gty");
  EXPECT_EQ(order(*p, 0b1111, kAges, 3), (std::vector<unsigned>{1, 1, 1}));
  EXPECT_EQ(p->pick(0b1101, kAges), 2U);  // warp 1 stalls: youngest of the rest
}

TEST(SchedulerPolicy, LooseRoundRobinRotates) {
  auto p = make("lrr");
  EXPECT_EQ(order(*p, 0b1011, kAges, 5), (std::vector<unsigned>{0, 1, 3, 0, 1}));
}

TEST(SchedulerPolicy, TwoLevelStaysInItsFetchGroupWhileItCanIssue) {
  auto p = make("two_level", 2);
  EXPECT_EQ(order(*p, 0b1111, kAges, 4), (std::vector<unsigned>{0, 1, 0, 1}));
  // Group 0 stalls: the next group takes over and keeps the scheduler.
  EXPECT_EQ(order(*p, 0b1100, kAges, 3), (std::vector<unsigned>{2, 3, 2}));
  EXPECT_EQ(order(*p, 0b1111, kAges, 2), (std::vector<unsigned>{3, 2}));
}

TEST(SchedulerPolicy, UnknownNameListsTheKnownOnes) {
  try {
    make("fifo");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("gto, gty, lrr, two_level"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace sassim::sim
