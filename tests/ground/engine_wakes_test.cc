// The engine keeps each unit's next event between steps: a unit handed work by
// another unit must still be ticked at the edge its new event asks for, whether it is
// told through set_wakes, mark_changed() or a Link's doorbell, in the same step when it
// comes after the sender in tick order and in the next one otherwise.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ground/engine.h"
#include "ground/error.h"
#include "ground/link.h"

namespace sassim::memsys {
namespace {

// Waits for work; ticked once per piece of work at the time it becomes ready.
class Receiver final : public ClockedUnit {
 public:
  explicit Receiver(bool self_marks = false) : self_marks_(self_marks) {}
  // Another unit hands it work visible from ready_ps.
  void give(Picos ready_ps) {
    ready_ = ready_ps;
    if (self_marks_) mark_changed();
  }
  bool tick(std::uint64_t /*cycle*/, Picos now) override {
    if (inbox.earliest_ps() <= now) {
      while (link.ready(now)) link.pop();
      inbox.reset(link.empty() ? kNever : link.front_ready_ps());
      ticks.push_back(now);
      return true;
    }
    if (ready_ > now) return false;
    ready_ = kNever;
    ticks.push_back(now);
    return true;
  }
  Picos next_event_ps() const override {
    ++queries;
    return std::min(ready_, inbox.earliest_ps());
  }
  bool busy() const override { return ready_ != kNever || !link.empty(); }
  const std::string& name() const override { return name_; }
  std::string describe_state() const override { return "receiver"; }
  void report(StatSink& /*sink*/) const override {}

  Doorbell inbox{this};
  Link<int> link{4, &inbox};
  std::vector<Picos> ticks;
  mutable int queries = 0;

 private:
  bool self_marks_;
  Picos ready_ = kNever;
  std::string name_ = "test.receiver";
};

// Ticks every core cycle (1000 ps) from cycle 1 to cycle `last`; at hand_at_ps it hands
// the receiver work visible from hand_at_ps + delay_ps, directly or through its Link.
class Sender final : public ClockedUnit {
 public:
  Sender(Receiver& r, Picos hand_at_ps, Picos delay_ps, bool through_link = false,
         std::uint64_t last = 10)
      : r_(r), hand_at_(hand_at_ps), delay_(delay_ps), through_link_(through_link), last_(last) {}
  bool tick(std::uint64_t cycle, Picos now) override {
    if (now == hand_at_) {
      if (through_link_) {
        r_.link.push(7, now, now + delay_);
      } else {
        r_.give(now + delay_);
      }
    }
    next_ = cycle < last_ ? now + 1000 : kNever;
    return true;
  }
  Picos next_event_ps() const override { return next_; }
  bool busy() const override { return next_ != kNever; }
  const std::string& name() const override { return name_; }
  std::string describe_state() const override { return "sender"; }
  void report(StatSink& /*sink*/) const override {}

 private:
  Receiver& r_;
  Picos hand_at_, delay_;
  bool through_link_;
  std::uint64_t last_;
  Picos next_ = 1000;
  std::string name_ = "test.sender";
};

Engine make_engine() {
  Engine engine(Clock{1000}, Clock{1500}, Clock{1000}, 1000);
  engine.set_check(true);
  return engine;
}

TEST(EngineWakes, DeclaredReceiverAfterTheSenderTicksInTheSameStep) {
  Engine engine = make_engine();
  Receiver r;
  Sender s(r, 3000, 0);
  engine.add(ClockDomain::kCore, &s);
  engine.add(ClockDomain::kCore, &r);
  engine.set_wakes(&s, {&r});
  engine.set_wakes(&r, {});
  engine.run_until([&] { return !s.busy() && !r.busy(); });
  EXPECT_EQ(r.ticks, std::vector<Picos>{3000});
}

TEST(EngineWakes, DeclaredReceiverBeforeTheSenderTicksAtTheNextEdge) {
  Engine engine = make_engine();
  Receiver r;
  Sender s(r, 3000, 0);
  engine.add(ClockDomain::kCore, &r);
  engine.add(ClockDomain::kCore, &s);
  engine.set_wakes(&s, {&r});
  engine.set_wakes(&r, {});
  engine.run_until([&] { return !s.busy() && !r.busy(); });
  EXPECT_EQ(r.ticks, std::vector<Picos>{4000});
}

TEST(EngineWakes, ReceiverThatMarksItselfChangedIsTickedWithoutADeclaration) {
  Engine engine = make_engine();
  Receiver r(/*self_marks=*/true);
  Sender s(r, 5000, 2500);
  engine.add(ClockDomain::kCore, &s);
  engine.add(ClockDomain::kCore, &r);
  engine.set_wakes(&s, {});
  engine.set_wakes(&r, {});
  engine.run_until([&] { return !s.busy() && !r.busy(); });
  EXPECT_EQ(r.ticks, std::vector<Picos>{8000});  // 7500 rounds up to core cycle 8
}

TEST(EngineWakes, DoorbellRingWakesAReceiverInAnotherClockDomain) {
  Engine engine = make_engine();
  Receiver r;
  Sender s(r, 3000, 1, /*through_link=*/true);
  engine.add(ClockDomain::kL2, &r);  // 1500 ps: edges 3000, 4500, ...
  engine.add(ClockDomain::kCore, &s);
  engine.set_wakes(&s, {});
  engine.set_wakes(&r, {});
  engine.run_until([&] { return !s.busy() && !r.busy(); });
  // Visible from 3001: the first L2 edge after it.
  EXPECT_EQ(r.ticks, std::vector<Picos>{4500});
}

TEST(EngineWakes, DefaultWakesEveryUnit) {
  Engine engine = make_engine();
  Receiver r;
  Sender s(r, 2000, 0);
  engine.add(ClockDomain::kCore, &s);
  engine.add(ClockDomain::kCore, &r);
  engine.run_until([&] { return !s.busy() && !r.busy(); });
  EXPECT_EQ(r.ticks, std::vector<Picos>{2000});
}

TEST(EngineWakes, IdleUnitIsAskedOnceARun) {
  Engine engine = make_engine();
  engine.set_check(false);
  Receiver idle;
  Receiver r;
  Sender s(r, 99'000, 0, false, 10);  // never hands anything within its 10 cycles
  engine.add(ClockDomain::kCore, &s);
  engine.add(ClockDomain::kCore, &idle);
  engine.set_wakes(&s, {});
  engine.set_wakes(&idle, {});
  engine.run_until([&] { return !s.busy(); });
  EXPECT_EQ(idle.queries, 1);
  EXPECT_TRUE(idle.ticks.empty());
}

TEST(EngineWakes, CheckCatchesAWakeThatWasNotDeclared) {
  Engine engine = make_engine();
  Receiver r;
  Sender s(r, 3000, 0);
  engine.add(ClockDomain::kCore, &s);
  engine.add(ClockDomain::kCore, &r);
  engine.set_wakes(&s, {});  // wrong: the sender hands the receiver work directly
  engine.set_wakes(&r, {});
  try {
    engine.run_until([&] { return !s.busy() && !r.busy(); });
    FAIL() << "expected the check to stop the run";
  } catch (const Error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("test.receiver"), std::string::npos) << message;
    EXPECT_NE(message.find("without waking it"), std::string::npos) << message;
  }
}

}  // namespace
}  // namespace sassim::memsys
