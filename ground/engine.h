#pragma once
// The event-skipping multi-clock engine. Units are registered in a clock domain in
// tick order (back to front). Each step the engine moves time to the earliest edge
// at which some unit can make progress and ticks, domain by domain in a fixed order,
// the units whose next event is due. Idle time costs nothing; a run without
// progress for too long stops with a dump of every unit's state.
//
// The engine keeps each unit's next event between steps and asks the unit again only
// when it may have changed: after the unit was ticked, after a unit declared to wake
// it was ticked (set_wakes; by default a tick wakes every unit), after the unit was
// marked changed (ClockedUnit::mark_changed: a doorbell ring, an entry point another
// unit called), and for every unit at the start of run_until (code outside the engine
// may have changed anything). With SASSIM_ENGINE_CHECK=1 in the environment it also
// asks every unit every step and stops with an error where a kept value differs.
//
// Tiles (set_tiles) are groups of units of one domain that tick apart from each other;
// with set_threads(N > 1) the tiles due in a step tick on N host threads. The outcome
// is the same for every N: each tile ticks its units in a fixed order, and what a tile
// hands to units outside it (doorbells, stale marks, listeners) does not depend on the
// order in which tiles run.
#include <array>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ground/tick_pool.h"
#include "ground/unit.h"
#include "ground/unit_calendar.h"

namespace sassim {

class Engine {
 public:
  Engine(Clock core, Clock l2, Clock dram, std::uint64_t deadlock_core_cycles);

  void add(ClockDomain domain, ClockedUnit* unit);
  // The units whose next event a tick of `unit` can change besides its own, apart from
  // the changes they are told of by mark_changed(). Replaces the default (every unit).
  void set_wakes(ClockedUnit* unit, std::vector<ClockedUnit*> woken);
  // Groups of units of `domain` that may tick on different host threads. Within a step
  // a tile's units touch only each other and, through thread-safe means (a Link's
  // doorbell, a listener that locks), units in no tile; their declared wakes
  // (set_wakes, required) name units of their own tile or in no tile. Together the
  // tiles are a run of consecutive units of the domain, which they replace in the tick
  // order: tile by tile, each tile's units in the order given. Replaces the domain's
  // earlier tiles; an empty list removes them. Throws sassim::Error on a violation.
  void set_tiles(ClockDomain domain, const std::vector<std::vector<ClockedUnit*>>& tiles);
  // Host threads ticking the tiles (1: the calling thread alone, the default).
  void set_threads(unsigned threads);
  unsigned threads() const { return pool_ ? pool_->threads() : 1; }
  // Whether every kept next event is checked against the unit each step.
  void set_check(bool check) { check_ = check; }
  const Clock& clock(ClockDomain domain) const { return domains_[index(domain)].clock; }
  Picos now() const { return now_; }
  // Current cycle of a domain (the last edge at or before now).
  std::uint64_t cycle(ClockDomain domain) const { return domains_[index(domain)].cycle; }

  // Runs until done() returns true (checked after each step). Throws sassim::Error
  // with every unit's state when no unit progresses for the deadlock limit, or when
  // nothing can ever progress while done() is still false.
  void run_until(const std::function<bool()>& done);
  // The same, but stops before any step after `limit`: returns false with time moved to
  // `limit` when the next step would come later and done() is still false. Stopping at
  // the limit is no progress: the watchdog counts on across such calls.
  bool run_until(const std::function<bool()>& done, Picos limit);
  // Moves time forward to at least t without ticking anything (nothing was pending).
  void advance_to(Picos t);
  // Every unit's state, for error reports.
  std::string dump_state() const;
  const std::vector<ClockedUnit*>& units(ClockDomain domain) const {
    return domains_[index(domain)].calendar.units();
  }

 private:
  struct Wakes {
    bool all = true;
    std::vector<ClockedUnit*> units;
  };
  struct Domain {
    Clock clock;
    std::uint64_t cycle = 0;
    UnitCalendar calendar;     // the units in tick order and their next events
    std::vector<Wakes> wakes;  // parallel to the units
    // Units [tiled_begin, tiled_end) tick tile by tile; tiles hold unit indices.
    std::size_t tiled_begin = 0, tiled_end = 0;
    std::vector<std::vector<std::size_t>> tiles;
    std::vector<std::size_t> tile_of;                // by unit in the tiled run: its tile
    std::vector<std::size_t> pending;                // tiles with a unit due or stale this step
    std::vector<char> is_pending;                    // by tile
    std::vector<std::vector<ClockedUnit*>> ticked;   // by tile: units ticked this step
    std::vector<std::exception_ptr> errors;          // by tile: what its tick threw
    std::uint64_t tile_work_ns = ~std::uint64_t{0};  // last tiled step's work on one thread
  };
  struct TileStep;
  static std::size_t index(ClockDomain d) { return static_cast<std::size_t>(d); }
  // Earliest edge, over all domains, at which some unit has an event; kNever if none.
  Picos next_step_time();
  void mark_all_changed();
  // Ticks the units of d due at t in tick order.
  bool tick_domain(Domain& d, Picos t);
  // Ticks unit k of d at t if its next event is due; returns {ticked, progressed}.
  std::pair<bool, bool> tick_unit(Domain& d, std::size_t k, Picos t);
  // Ticks the tiles of d due at t, on the pool when more than one is due and the last
  // tiled step had enough work.
  bool tick_tiles(Domain& d, Picos t);
  static void tick_tile(void* step, std::size_t tile);

  std::array<Domain, kNumClockDomains> domains_;
  Picos now_ = 0;
  Picos deadlock_ps_;
  Picos last_progress_ps_ = 0;
  bool paused_at_limit_ = false;  // the last run_until stopped at its limit
  bool check_ = false;
  std::unique_ptr<TickPool> pool_;
};

}  // namespace sassim
