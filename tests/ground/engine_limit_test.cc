// Engine::run_until with a time limit (a GPU of a multi-GPU run stops at each sync time):
// no step later than the limit, time moved to the limit, the events after it kept for
// the next call, and the watchdog still counting across calls.
#include <gtest/gtest.h>

#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "ground/engine.h"
#include "ground/error.h"

namespace sassim {
namespace {

// Has work due at given times; a tick at or after the next one does it.
class ScheduledUnit final : public ClockedUnit {
 public:
  explicit ScheduledUnit(std::deque<Picos> due) : due_(std::move(due)) {}
  bool tick(std::uint64_t cycle, Picos now) override {
    if (due_.empty() || due_.front() > now) return false;
    due_.pop_front();
    ticks.push_back(now);
    cycles.push_back(cycle);
    return true;
  }
  Picos next_event_ps() const override { return due_.empty() ? kNever : due_.front(); }
  bool busy() const override { return !due_.empty(); }
  const std::string& name() const override { return name_; }
  std::string describe_state() const override { return "scheduled"; }
  void report(StatSink& /*sink*/) const override {}
  std::vector<Picos> ticks;
  std::vector<std::uint64_t> cycles;

 private:
  std::deque<Picos> due_;
  std::string name_ = "test.scheduled";
};

// Holds work, asks to be ticked every core cycle, never progresses.
class StuckUnit final : public ClockedUnit {
 public:
  bool tick(std::uint64_t /*cycle*/, Picos now) override {
    last_ = now;
    return false;
  }
  Picos next_event_ps() const override { return last_ + 1000; }
  bool busy() const override { return true; }
  const std::string& name() const override { return name_; }
  std::string describe_state() const override { return "stuck"; }
  void report(StatSink& /*sink*/) const override {}

 private:
  Picos last_ = 0;
  std::string name_ = "test.stuck";
};

TEST(EngineLimit, StopsAtTheLimitAndGoesOnFromIt) {
  Engine engine(Clock{1000}, Clock{1000}, Clock{1000}, 1000);
  engine.set_check(true);
  ScheduledUnit unit({3000, 7000, 12000});
  engine.add(ClockDomain::kCore, &unit);
  auto all_done = [&] { return !unit.busy(); };
  EXPECT_FALSE(engine.run_until(all_done, 5500));
  EXPECT_EQ(engine.now(), 5500u);
  EXPECT_EQ(engine.cycle(ClockDomain::kCore), 5u);
  EXPECT_EQ(unit.ticks, std::vector<Picos>{3000});
  // An event exactly at the limit happens in this call.
  EXPECT_FALSE(engine.run_until(all_done, 7000));
  EXPECT_EQ(engine.now(), 7000u);
  EXPECT_EQ(unit.ticks, (std::vector<Picos>{3000, 7000}));
  // A limit before now moves nothing back and ticks nothing.
  EXPECT_FALSE(engine.run_until(all_done, 2000));
  EXPECT_EQ(engine.now(), 7000u);
  EXPECT_EQ(unit.ticks.size(), 2u);
  // Done before the limit: true, time at the last step, not at the limit.
  EXPECT_TRUE(engine.run_until(all_done, 50'000));
  EXPECT_EQ(engine.now(), 12'000u);
  EXPECT_EQ(unit.ticks, (std::vector<Picos>{3000, 7000, 12000}));
  EXPECT_EQ(unit.cycles, (std::vector<std::uint64_t>{3, 7, 12}));
}

TEST(EngineLimit, DoneAlreadyReturnsTrueWithoutMovingTime) {
  Engine engine(Clock{1000}, Clock{1000}, Clock{1000}, 1000);
  ScheduledUnit unit({3000});
  engine.add(ClockDomain::kCore, &unit);
  EXPECT_TRUE(engine.run_until([] { return true; }, 10'000));
  EXPECT_EQ(engine.now(), 0u);
  EXPECT_TRUE(unit.ticks.empty());
  // done() turns true after the first step.
  EXPECT_TRUE(engine.run_until([&] { return !unit.ticks.empty(); }, 10'000));
  EXPECT_EQ(engine.now(), 3000u);
}

TEST(EngineLimit, AnEventAfterTheLimitWaitsForItsOwnEdge) {
  // L2 edges every 700 ps: the event at 2100 is L2 cycle 3.
  Engine engine(Clock{1000}, Clock{700}, Clock{1000}, 1000);
  ScheduledUnit unit({2100, 2800});
  engine.add(ClockDomain::kL2, &unit);
  auto all_done = [&] { return !unit.busy(); };
  EXPECT_FALSE(engine.run_until(all_done, 2000));
  EXPECT_EQ(engine.now(), 2000u);
  EXPECT_EQ(engine.cycle(ClockDomain::kL2), 2u);
  EXPECT_EQ(engine.cycle(ClockDomain::kCore), 2u);
  EXPECT_TRUE(unit.ticks.empty());
  EXPECT_FALSE(engine.run_until(all_done, 2799));
  EXPECT_EQ(engine.now(), 2799u);
  EXPECT_EQ(unit.ticks, std::vector<Picos>{2100});
  EXPECT_TRUE(engine.run_until(all_done, kNever));
  EXPECT_EQ(unit.ticks, (std::vector<Picos>{2100, 2800}));
  EXPECT_EQ(unit.cycles, (std::vector<std::uint64_t>{3, 4}));
}

TEST(EngineLimit, NothingLeftToWakeIsStillAStall) {
  Engine engine(Clock{1000}, Clock{1000}, Clock{1000}, 1000);
  ScheduledUnit unit({1000});
  engine.add(ClockDomain::kCore, &unit);
  try {
    engine.run_until([] { return false; }, 5000);
    FAIL() << "expected a stall error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("stalled at 1000 ps"), std::string::npos) << e.what();
  }
}

// Pausing at a limit is no progress: a unit stuck across many short calls trips the
// watchdog at the same step as in one long call.
TEST(EngineLimit, WatchdogCountsAcrossCallsThatStopAtALimit) {
  Engine engine(Clock{1000}, Clock{1000}, Clock{1000}, 100);
  StuckUnit stuck;
  engine.add(ClockDomain::kCore, &stuck);
  Picos limit = 0;
  try {
    for (int call = 0; call < 100; ++call) {
      limit += 30'000;
      EXPECT_FALSE(engine.run_until([] { return false; }, limit));
      EXPECT_EQ(engine.now(), limit);
    }
    FAIL() << "expected a deadlock error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("deadlock: no unit made progress for 100 core cycles"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(engine.now(), 101'000u);
}

}  // namespace
}  // namespace sassim
