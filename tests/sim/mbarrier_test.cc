// The mbarrier phase rules (sim/mbarrier.h): arrivals, transaction bytes, waiters.
#include "sim/mbarrier.h"

#include <gtest/gtest.h>

namespace sassim::sim {
namespace {

constexpr MbarrierKey kBar{0, 0x100};

TEST(Mbarrier, ArriveWithoutTransactionsCompletesThePhase) {
  Mbarriers bars;
  EXPECT_EQ(bars.completed_phases(kBar), 0u);
  EXPECT_TRUE(bars.arrive(kBar, false).empty());
  EXPECT_EQ(bars.completed_phases(kBar), 1u);
  EXPECT_FALSE(bars.wait(kBar, 3));  // nothing pending
}

TEST(Mbarrier, WaiterResumesExactlyWhenTheLastBytesComplete) {
  Mbarriers bars;
  bars.arrive(kBar, true);  // arrive.expect_tx by the producer
  bars.issue_tx(kBar, 1024);
  bars.issue_tx(kBar, 512);
  EXPECT_TRUE(bars.wait(kBar, 5));
  EXPECT_TRUE(bars.wait(kBar, 9));
  EXPECT_TRUE(bars.complete_tx(kBar, 1024).empty());
  EXPECT_EQ(bars.completed_phases(kBar), 0u);
  const std::vector<unsigned> woken = bars.complete_tx(kBar, 512);
  EXPECT_EQ(woken, (std::vector<unsigned>{5, 9}));
  EXPECT_EQ(bars.completed_phases(kBar), 1u);
}

TEST(Mbarrier, ExpectTxHoldsThePhaseUntilACopyIsIssuedAndDone) {
  Mbarriers bars;
  bars.arrive(kBar, true);
  EXPECT_EQ(bars.completed_phases(kBar), 0u);  // no copy issued yet
  EXPECT_TRUE(bars.wait(kBar, 1));
  bars.issue_tx(kBar, 64);
  EXPECT_EQ(bars.complete_tx(kBar, 64), (std::vector<unsigned>{1}));
}

TEST(Mbarrier, PhaseNeedsEveryExpectedArrival) {
  Mbarriers bars;
  bars.init(kBar, 3);
  bars.arrive(kBar, false);
  EXPECT_TRUE(bars.wait(kBar, 2));
  EXPECT_TRUE(bars.arrive(kBar, false).empty());
  EXPECT_EQ(bars.arrive(kBar, false), (std::vector<unsigned>{2}));
  // The next phase expects three arrivals again.
  bars.arrive(kBar, false);
  EXPECT_EQ(bars.completed_phases(kBar), 1u);
}

TEST(Mbarrier, BarriersAreKeyedByCtaAndOffsetAndReleasedWithTheirCta) {
  Mbarriers bars;
  bars.arrive(MbarrierKey{0, 0x100}, false);
  bars.arrive(MbarrierKey{0, 0x108}, true);
  bars.arrive(MbarrierKey{1, 0x100}, false);
  EXPECT_EQ(bars.completed_phases(MbarrierKey{0, 0x108}), 0u);
  EXPECT_EQ(bars.size(), 3u);
  bars.release_cta(0);
  EXPECT_EQ(bars.size(), 1u);
  EXPECT_EQ(bars.completed_phases(MbarrierKey{1, 0x100}), 1u);
}

TEST(Mbarrier, RecordedExpectTxCountsBytesExactly) {
  Mbarriers bars;
  bars.arrive(kBar, MbarrierArrive{1, true, 1024});
  bars.issue_tx(kBar, 512);
  EXPECT_TRUE(bars.wait(kBar, 4, 0u));
  EXPECT_TRUE(bars.complete_tx(kBar, 512).empty());  // 512 of the 1024 bytes still due
  bars.issue_tx(kBar, 512);
  EXPECT_EQ(bars.complete_tx(kBar, 512), (std::vector<unsigned>{4}));
}

TEST(Mbarrier, CopyCompletingBeforeItsExpectTxCountsBelowZero) {
  Mbarriers bars;
  bars.issue_tx(kBar, 256);
  EXPECT_TRUE(bars.complete_tx(kBar, 256).empty());  // no arrival yet
  EXPECT_EQ(bars.completed_phases(kBar), 0u);
  bars.arrive(kBar, MbarrierArrive{1, true, 256});
  EXPECT_EQ(bars.completed_phases(kBar), 1u);
}

TEST(Mbarrier, ParityWaitWaitsWhileTheCurrentPhaseHasThatParity) {
  Mbarriers bars;
  EXPECT_TRUE(bars.wait(kBar, 1, 0u));   // phase 0 not complete, nothing arrived yet
  EXPECT_FALSE(bars.wait(kBar, 2, 1u));  // phase of parity 1 (phase -1) counts as done
  bars.init(kBar, 2);                    // the waiter stays
  EXPECT_TRUE(bars.arrive(kBar, MbarrierArrive{1, false, std::nullopt}).empty());
  EXPECT_EQ(bars.arrive(kBar, MbarrierArrive{1, false, std::nullopt}), (std::vector<unsigned>{1}));
  EXPECT_FALSE(bars.wait(kBar, 3, 0u));  // phase 0 completed
  EXPECT_TRUE(bars.wait(kBar, 3, 1u));   // phase 1 is the current one
}

TEST(Mbarrier, ArrivalsCountThreads) {
  Mbarriers bars;
  bars.init(kBar, 64);
  bars.arrive(kBar, MbarrierArrive{32, false, std::nullopt});
  EXPECT_EQ(bars.completed_phases(kBar), 0u);
  bars.arrive(kBar, MbarrierArrive{32, false, std::nullopt});
  EXPECT_EQ(bars.completed_phases(kBar), 1u);
}

}  // namespace
}  // namespace sassim::sim
