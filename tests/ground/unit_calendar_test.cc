// UnitCalendar: the kept next events of a domain's units, the heap that finds the
// earliest and the due ones, and the stale marks that make it ask a unit again.
#include "ground/unit_calendar.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ground/error.h"

namespace sassim {
namespace {

class Timed final : public ClockedUnit {
 public:
  bool tick(std::uint64_t /*cycle*/, Picos /*now*/) override { return true; }
  Picos next_event_ps() const override {
    ++asked;
    return event;
  }
  bool busy() const override { return false; }
  const std::string& name() const override { return name_; }
  std::string describe_state() const override { return {}; }
  void report(StatSink& /*sink*/) const override {}

  Picos event = kNever;
  mutable int asked = 0;

 private:
  std::string name_ = "test.timed";
};

struct Fixture {
  explicit Fixture(std::size_t n) : units(n) {
    for (Timed& u : units) calendar.add(&u);
  }
  std::vector<std::size_t> candidates(std::size_t from, std::size_t end) const {
    std::vector<std::size_t> out;
    for (std::size_t k = calendar.next_candidate(from, end); k < end;
         k = calendar.next_candidate(k + 1, end)) {
      out.push_back(k);
    }
    return out;
  }
  std::vector<Timed> units;
  UnitCalendar calendar;
};

TEST(UnitCalendar, FindsTheEarliestAndTheDueUnitsInIndexOrder) {
  Fixture f(130);
  f.units[3].event = 5000;
  f.units[70].event = 2000;
  f.units[129].event = 2000;
  f.units[64].event = 9000;
  EXPECT_EQ(f.candidates(0, 130).size(), 130u);  // every unit starts stale
  f.calendar.refresh(false, 0);
  EXPECT_EQ(f.candidates(0, 130), std::vector<std::size_t>{});
  EXPECT_EQ(f.calendar.earliest(), 2000u);
  f.calendar.take_due(5000);
  EXPECT_EQ(f.candidates(0, 130), (std::vector<std::size_t>{3, 70, 129}));
  EXPECT_EQ(f.candidates(4, 129), std::vector<std::size_t>{70});
  EXPECT_EQ(f.calendar.event(70), 2000u);
  f.calendar.clear_due();
  EXPECT_EQ(f.candidates(0, 130), std::vector<std::size_t>{});
  for (const std::size_t k :
       std::initializer_list<std::size_t>{3, 70, 129}) {  // as the engine's ticks leave them
    f.units[k].event = kNever;
    f.units[k].mark_changed();
  }
  f.calendar.refresh(false, 0);
  EXPECT_EQ(f.calendar.earliest(), 9000u);
}

TEST(UnitCalendar, AsksOnlyStaleUnitsAgain) {
  Fixture f(4);
  for (Timed& u : f.units) u.event = 1000;
  f.calendar.refresh(false, 0);
  for (const Timed& u : f.units) EXPECT_EQ(u.asked, 1);
  f.units[2].event = 300;
  f.units[2].mark_changed();
  EXPECT_EQ(f.candidates(0, 4), std::vector<std::size_t>{2});
  EXPECT_EQ(f.calendar.event(2), 300u);  // asked now, still stale
  EXPECT_TRUE(f.calendar.stale(2));
  f.calendar.refresh(false, 0);
  EXPECT_EQ(f.units[0].asked, 1);
  EXPECT_EQ(f.units[2].asked, 3);
  EXPECT_FALSE(f.calendar.stale(2));
  EXPECT_EQ(f.calendar.earliest(), 300u);
}

TEST(UnitCalendar, KeepsOnlyTheUnitsLatestEvent) {
  Fixture f(2);
  f.units[0].event = 500;
  f.calendar.refresh(false, 0);
  f.units[0].event = 700;
  f.units[0].mark_changed();
  f.calendar.refresh(false, 0);
  f.units[0].event = 500;  // filed twice at 500, once at 700
  f.units[0].mark_changed();
  f.calendar.refresh(false, 0);
  EXPECT_EQ(f.calendar.earliest(), 500u);
  f.calendar.take_due(500);
  EXPECT_EQ(f.candidates(0, 2), std::vector<std::size_t>{0});
  f.calendar.clear_due();
  f.units[0].event = 900;
  f.units[0].mark_changed();
  f.calendar.refresh(false, 0);
  EXPECT_EQ(f.calendar.earliest(), 900u);  // neither the other 500 nor the 700
  f.calendar.take_due(800);
  EXPECT_EQ(f.candidates(0, 2), std::vector<std::size_t>{});
  f.units[0].event = kNever;
  f.units[0].mark_changed();
  f.calendar.refresh(false, 0);
  EXPECT_EQ(f.calendar.earliest(), kNever);
}

TEST(UnitCalendar, MarkAllMakesEveryUnitStale) {
  Fixture f(65);
  f.calendar.refresh(false, 0);
  f.calendar.mark_all();
  EXPECT_EQ(f.candidates(0, 65).size(), 65u);
  f.calendar.set_stale(0);
  f.calendar.refresh(false, 0);
  EXPECT_EQ(f.candidates(0, 65).size(), 0u);
}

TEST(UnitCalendar, CheckFindsAnEventChangedWithoutAMark) {
  Fixture f(3);
  f.units[1].event = 400;
  f.calendar.refresh(true, 0);
  f.units[1].event = 200;
  try {
    f.calendar.refresh(true, 123);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("kept 400 ps as the next event of test.timed, which now "
                                         "reports 200 ps (at 123 ps)"),
              std::string::npos)
        << e.what();
  }
  f.calendar.refresh(false, 0);  // without the check the kept event stands
  EXPECT_EQ(f.calendar.earliest(), 400u);
}

}  // namespace
}  // namespace sassim
