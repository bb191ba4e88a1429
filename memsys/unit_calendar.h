#pragma once
// The next events of one clock domain's units, kept between steps so that a step costs
// the units it ticks, not every unit. A unit's kept event is valid until the unit is
// marked stale (ClockedUnit::mark_changed, from any thread); refresh() asks the stale
// units again and files each finite event in a calendar (a min-heap of (time, unit)
// with lazy deletion), so the earliest event and the units due at a time come from
// the heap. Units are identified by their index in the domain's tick order.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <queue>
#include <utility>
#include <vector>

#include "memsys/unit.h"

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
  // Marks due every unit whose kept event is at or before t (taking it off the
  // calendar: such a unit is ticked, or found stale, in the step).
  void take_due(Picos t);
  void clear_due();
  // The first unit in [from, end) that is due or stale; end if none.
  std::size_t next_candidate(std::size_t from, std::size_t end) const;
  // The unit's next event: asked again if stale (then left stale), else the kept one.
  Picos event(std::size_t k) const { return stale(k) ? units_[k]->next_event_ps() : kept_[k]; }

 private:
  using Entry = std::pair<Picos, std::size_t>;
  void file(std::size_t k, Picos t);
  bool live(const Entry& e) const { return filed_[e.second] == e.first; }

  std::vector<ClockedUnit*> units_;
  std::shared_ptr<StaleBits> stale_;
  std::vector<Picos> kept_;         // by unit: its next event while not stale
  std::vector<Picos> filed_;        // by unit: time of its live entry; kNever if none
  std::vector<std::uint64_t> due_;  // bit per unit
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap_;
};

}  // namespace sassim
