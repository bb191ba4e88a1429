// The engine's deadlock watchdog and stall detection, with mock units.
#include "ground/engine.h"

#include <gtest/gtest.h>

#include <string>

#include "ground/error.h"

namespace sassim::memsys {
namespace {

// Holds work, asks to be ticked every cycle, never progresses.
class StuckUnit final : public ClockedUnit {
 public:
  bool tick(std::uint64_t /*cycle*/, Picos now) override {
    last_ = now;
    ++ticks;
    return false;
  }
  Picos next_event_ps() const override { return last_ + 1000; }
  bool busy() const override { return true; }
  const std::string& name() const override { return name_; }
  std::string describe_state() const override { return "waiting for a grant that never comes"; }
  void report(StatSink& /*sink*/) const override {}
  int ticks = 0;

 private:
  Picos last_ = 0;
  std::string name_ = "test.stuck";
};

// Holds work but never has an event: nothing can ever wake it.
class AsleepUnit final : public ClockedUnit {
 public:
  bool tick(std::uint64_t /*cycle*/, Picos /*now*/) override { return false; }
  Picos next_event_ps() const override { return kNever; }
  bool busy() const override { return true; }
  const std::string& name() const override { return name_; }
  std::string describe_state() const override { return "asleep with 3 requests"; }
  void report(StatSink& /*sink*/) const override {}

 private:
  std::string name_ = "test.asleep";
};

TEST(Engine, WatchdogFiresWithTheUnitDump) {
  Engine engine(Clock{1000}, Clock{1000}, Clock{1000}, 100);
  StuckUnit stuck;
  engine.add(ClockDomain::kL2, &stuck);
  try {
    engine.run_until([] { return false; });
    FAIL() << "expected a deadlock error";
  } catch (const Error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("deadlock"), std::string::npos) << message;
    EXPECT_NE(message.find("100 core cycles"), std::string::npos) << message;
    EXPECT_NE(message.find("test.stuck: waiting for a grant that never comes"), std::string::npos)
        << message;
  }
  // The first step more than 100 cycles after the last progress (time 0).
  EXPECT_EQ(engine.now(), 101'000u);
  EXPECT_EQ(stuck.ticks, 101);
}

TEST(Engine, NothingLeftToWakeIsReportedAsAStall) {
  Engine engine(Clock{1000}, Clock{1000}, Clock{1000}, 100);
  AsleepUnit asleep;
  engine.add(ClockDomain::kCore, &asleep);
  try {
    engine.run_until([] { return false; });
    FAIL() << "expected a stall error";
  } catch (const Error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("stalled"), std::string::npos) << message;
    EXPECT_NE(message.find("test.asleep: asleep with 3 requests"), std::string::npos) << message;
  }
}

}  // namespace
}  // namespace sassim::memsys
