#pragma once
// The next events of one clock domain's units, kept between steps so that a step costs
// the units it ticks, not every unit. A unit's kept event is valid until the unit is
// marked stale (ClockedUnit::mark_changed, from any thread); refresh() asks the stale
// units again. Events are kept in an array by unit with the minimum of each group of
// 64 units beside it, so the earliest event costs a look at each group and the units
// due at a time a look at the groups whose minimum is due: cheap both when a few
// units of many are at work and when all are. Units are identified by their index in
// the domain's tick order.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "ground/unit.h"

namespace sassim {

class UnitCalendar {
 public:
  UnitCalendar() : stale_(std::make_shared<StaleBits>()) {}

  // Registers the next unit of the domain (index size() - 1), stale.
  void add(ClockedUnit* unit);
  std::size_t size() const { return units_.size(); }
  ClockedUnit* unit(std::size_t k) const { return units_[k]; }
  const std::vector<ClockedUnit*>& units() const { return units_; }

  bool stale(std::size_t k) const {
    return (stale_->words[k / 64].load(std::memory_order_relaxed) >> (k % 64) & 1) != 0;
  }
  void set_stale(std::size_t k) { units_[k]->mark_changed(); }
  void mark_all();
  // Asks every stale unit for its next event and files it. With `check`, also asks
  // every other unit and throws sassim::Error where its kept event differs (`now` for
  // the message).
  void refresh(bool check, Picos now);
  // The earliest kept event (kNever if none); valid right after refresh().
  Picos earliest();
  // Marks due every unit whose kept event is at or before t (in a step each of them is
  // ticked, which makes it stale, or is found stale already).
  void take_due(Picos t);
  void clear_due();
  // The first unit in [from, end) that is due or stale; end if none.
  std::size_t next_candidate(std::size_t from, std::size_t end) const;
  // The unit's next event: asked again if stale (then left stale), else the kept one.
  Picos event(std::size_t k) const { return stale(k) ? units_[k]->next_event_ps() : kept_[k]; }

 private:
  std::vector<ClockedUnit*> units_;
  std::shared_ptr<StaleBits> stale_;
  std::vector<Picos> kept_;         // by unit (padded to whole groups): next event
  std::vector<Picos> group_min_;    // by group of 64 units: the least kept event
  std::vector<std::uint64_t> due_;  // bit per unit
};

}  // namespace sassim
