// RankSync, the meeting point of a multi-GPU run's players, with hand-made collectives
// (their simulated time set by hand) and players on host threads that arrive and sync
// through their ports as a GPU would: exact starts and ends, the lookahead, the same
// outcome whatever order the threads run in, the deadlock message and aborting.
#include "multigpu/rank_sync.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <optional>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

namespace sassim::multigpu {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

CollectiveInstance instance(std::vector<std::uint32_t> ranks, std::int64_t time_ps,
                            std::string source) {
  CollectiveInstance c;
  c.call.ranks = std::move(ranks);
  c.call.bytes = 64;
  c.result.time_ps = time_ps;
  c.source = std::move(source);
  return c;
}

// What a player does: arrives at its collectives (index in its trace, time), syncs at
// every sync time up to `until` (idle from `idle_from` on), then leaves.
struct Script {
  std::vector<std::pair<std::size_t, Picos>> arrivals;  // by time
  Picos until = 0;
  Picos idle_from = kNever;
  int delay_us = 0;  // host time slept before each step, to shuffle the threads
};

// What a player saw: at each sync time, the ends it was told.
struct Seen {
  std::vector<std::pair<Picos, std::vector<sim::CollectivePort::Finished>>> syncs;
  std::string error;
  bool aborted = false;
};

void play(RankSync& sync, std::size_t p, const Script& s, Seen& seen) {
  sim::CollectivePort& port = sync.port(p);
  std::size_t next = 0;
  bool ok = true;
  try {
    for (Picos t = port.next_sync(0); t <= s.until; t = port.next_sync(t)) {
      for (; next < s.arrivals.size() && s.arrivals[next].second < t; ++next) {
        std::this_thread::sleep_for(std::chrono::microseconds(s.delay_us));
        port.arrive(s.arrivals[next].first, s.arrivals[next].second);
      }
      std::this_thread::sleep_for(std::chrono::microseconds(s.delay_us));
      seen.syncs.emplace_back(t, port.sync(t, t >= s.idle_from));
    }
  } catch (const RunAborted& e) {
    seen.aborted = true;
    seen.error = e.what();
    ok = false;
  } catch (const Error& e) {
    seen.error = e.what();
    ok = false;
  }
  sync.leave(p, ok);
}

std::vector<Seen> play_all(RankSync& sync, const std::vector<Script>& scripts) {
  std::vector<Seen> seen(scripts.size());
  std::vector<std::jthread> threads;
  for (std::size_t p = 0; p < scripts.size(); ++p)
    threads.emplace_back([&, p] { play(sync, p, scripts[p], seen[p]); });
  threads.clear();  // joins
  return seen;
}

// Each sync's told ends as (sync time, index, end).
std::vector<std::tuple<Picos, std::size_t, Picos>> told(const Seen& s) {
  std::vector<std::tuple<Picos, std::size_t, Picos>> out;
  for (const auto& [t, finished] : s.syncs)
    for (const auto& f : finished) out.emplace_back(t, f.index, f.end);
  return out;
}

using Told = std::vector<std::tuple<Picos, std::size_t, Picos>>;

// Three players, one a rank: rank 0 calls instance 0; ranks 1 and 2 call 0 then 1.
RankSync three_players() {
  return RankSync({instance({0, 1, 2}, 4000, "r0.g:1"), instance({1, 2}, 10'000, "r1.g:2")},
                  {Player{{0}, {0}}, Player{{1}, {0, 1}}, Player{{2}, {0, 1}}});
}
std::vector<Script> three_scripts(int d0, int d1, int d2) {
  return {Script{{{0, 2500}}, 24'000, kNever, d0},
          Script{{{0, 3900}, {1, 9000}}, 24'000, kNever, d1},
          Script{{{0, 1000}, {1, 13'000}}, 24'000, kNever, d2}};
}

TEST(RankSync, LookaheadIsTheShortestCollective) {
  RankSync sync = three_players();
  EXPECT_EQ(sync.lookahead(), 4000u);
  EXPECT_EQ(sync.port(1).next_sync(0), 4000u);
  EXPECT_EQ(sync.port(1).next_sync(3999), 4000u);
  EXPECT_EQ(sync.port(1).next_sync(4000), 8000u);
  EXPECT_EQ(RankSync({}, {Player{{0}, {}}}).lookahead(), kNever);
  EXPECT_EQ(RankSync({}, {Player{{0}, {}}}).port(0).next_sync(5), kNever);
}

TEST(RankSync, StartIsTheLastArrivalAndEndAddsTheCollectivesTime) {
  RankSync sync = three_players();
  const std::vector<Seen> seen = play_all(sync, three_scripts(0, 0, 0));
  const CollectiveInstance& a = sync.instances()[0];
  const CollectiveInstance& b = sync.instances()[1];
  ASSERT_TRUE(a.resolved && b.resolved);
  EXPECT_EQ(a.arrivals, (std::vector<std::optional<Picos>>{2500, 3900, 1000}));
  EXPECT_EQ(a.start, 3900u);
  EXPECT_EQ(a.end, 7900u);
  EXPECT_EQ(b.arrivals, (std::vector<std::optional<Picos>>{9000, 13'000}));
  EXPECT_EQ(b.start, 13'000u);
  EXPECT_EQ(b.end, 23'000u);
  // Each player is told at the first sync after the last arrival, by its own index.
  EXPECT_EQ(told(seen[0]), (Told{{4000, 0, 7900}}));
  EXPECT_EQ(told(seen[1]), (Told{{4000, 0, 7900}, {16'000, 1, 23'000}}));
  EXPECT_EQ(told(seen[2]), (Told{{4000, 0, 7900}, {16'000, 1, 23'000}}));
  for (const Seen& s : seen) {
    EXPECT_EQ(s.syncs.size(), 6u);  // 4000 .. 24000
    EXPECT_EQ(s.error, "");
  }
  EXPECT_EQ(sync.syncs(), 6u);
}

TEST(RankSync, OutcomeDoesNotDependOnTheThreadOrder) {
  RankSync first = three_players();
  const std::vector<Seen> reference = play_all(first, three_scripts(0, 0, 0));
  for (const auto& [d0, d1, d2] : std::vector<std::tuple<int, int, int>>{
           {300, 0, 0}, {0, 300, 0}, {0, 0, 300}, {200, 100, 0}}) {
    RankSync sync = three_players();
    const std::vector<Seen> seen = play_all(sync, three_scripts(d0, d1, d2));
    for (std::size_t p = 0; p < 3; ++p) EXPECT_EQ(told(seen[p]), told(reference[p])) << p;
    for (std::size_t k = 0; k < 2; ++k) {
      EXPECT_EQ(sync.instances()[k].arrivals, first.instances()[k].arrivals) << k;
      EXPECT_EQ(sync.instances()[k].start, first.instances()[k].start) << k;
      EXPECT_EQ(sync.instances()[k].end, first.instances()[k].end) << k;
    }
  }
}

TEST(RankSync, APlayerArrivesForEveryRankItStandsFor) {
  RankSync sync({instance({0, 1, 2}, 1000, "r0.g:1")}, {Player{{0, 2}, {0}}, Player{{1}, {0}}});
  const std::vector<Seen> seen =
      play_all(sync, {Script{{{0, 100}}, 2000, kNever, 0}, Script{{{0, 300}}, 2000, kNever, 0}});
  EXPECT_EQ(sync.instances()[0].arrivals, (std::vector<std::optional<Picos>>{100, 300, 100}));
  EXPECT_EQ(sync.instances()[0].start, 300u);
  EXPECT_EQ(sync.instances()[0].end, 1300u);
  EXPECT_EQ(told(seen[0]), (Told{{1000, 0, 1300}}));
  EXPECT_EQ(told(seen[1]), (Told{{1000, 0, 1300}}));
}

TEST(RankSync, EveryPlayerIdleWithNothingToComeIsADeadlock) {
  // Rank 0 waits on instance 0, which rank 1 never reaches; rank 1 runs kernels until
  // 3000, then waits too.
  RankSync sync({instance({0, 1}, 1000, "r0.g:3")}, {Player{{0}, {0}}, Player{{1}, {0}}});
  const std::vector<Seen> seen =
      play_all(sync, {Script{{{0, 500}}, 10'000, 1000, 0}, Script{{}, 10'000, 3000, 0}});
  // The first player out of the sync reports the deadlock; one that wakes after it has
  // left (leave(p, false)) may see that as an abort instead.
  int deadlocks = 0;
  for (const Seen& s : seen) {
    if (s.aborted) {
      EXPECT_THAT(s.error, HasSubstr("another GPU of the system failed or stopped"));
    } else {
      ++deadlocks;
      EXPECT_THAT(s.error, AllOf(HasSubstr("every GPU of the system waits on a collective that "
                                           "some rank never reaches"),
                                 HasSubstr("all_reduce fp32 64 B (r0.g:3) waits for rank(s) 1 "
                                           "(arrived: 0)")));
    }
    // Syncs at 1000 and 2000 went by (rank 1 busy); the one at 3000 found the deadlock.
    EXPECT_EQ(s.syncs.size(), 2u);
  }
  EXPECT_GE(deadlocks, 1);
  EXPECT_FALSE(sync.instances()[0].resolved);
}

TEST(RankSync, IdlePlayersWaitingOnACollectiveInFlightAreNoDeadlock) {
  RankSync sync({instance({0, 1}, 1000, "r0.g:1"), instance({0, 1}, 5000, "r0.g:2")},
                {Player{{0}, {0, 1}}, Player{{1}, {0, 1}}});
  const std::vector<Seen> seen = play_all(
      sync, {Script{{{0, 0}, {1, 1000}}, 6000, 0, 0}, Script{{{0, 0}, {1, 1000}}, 6000, 0, 0}});
  for (const Seen& s : seen) {
    EXPECT_EQ(s.error, "");
    EXPECT_EQ(told(s), (Told{{1000, 0, 1000}, {2000, 1, 6000}}));
  }
}

TEST(RankSync, OthersStopWithRunAbortedWhenAPlayerFails) {
  RankSync sync({instance({0, 1, 2}, 1000, "r0.g:1")},
                {Player{{0}, {0}}, Player{{1}, {0}}, Player{{2}, {0}}});
  std::vector<Seen> seen(3);
  {
    std::jthread failing([&] { sync.leave(0, false); });
    std::jthread one([&] { play(sync, 1, Script{{}, 5000, kNever, 0}, seen[1]); });
    std::jthread two([&] { play(sync, 2, Script{{}, 5000, kNever, 100}, seen[2]); });
  }
  for (std::size_t p : {1u, 2u}) {
    EXPECT_TRUE(seen[p].aborted) << p;
    EXPECT_THAT(seen[p].error, HasSubstr("another GPU of the system failed or stopped")) << p;
    EXPECT_TRUE(seen[p].syncs.empty()) << p;
  }
}

TEST(RankSync, APlayerThatEndsNormallyLeavesTheOthersGoingOn) {
  RankSync sync({instance({0, 1}, 1000, "r0.g:1")}, {Player{{0}, {0}}, Player{{1}, {0}}});
  const std::vector<Seen> seen =
      play_all(sync, {Script{{{0, 200}}, 2000, kNever, 0}, Script{{{0, 700}}, 9000, kNever, 50}});
  EXPECT_EQ(seen[0].syncs.size(), 2u);
  EXPECT_EQ(seen[1].syncs.size(), 9u);
  EXPECT_EQ(seen[1].error, "");
  EXPECT_EQ(told(seen[1]), (Told{{1000, 0, 1700}}));
}

}  // namespace
}  // namespace sassim::multigpu
