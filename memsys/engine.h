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
#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "memsys/unit.h"

namespace sassim {

class Engine {
 public:
  Engine(Clock core, Clock l2, Clock dram, std::uint64_t deadlock_core_cycles);

  void add(ClockDomain domain, ClockedUnit* unit);
  // The units whose next event a tick of `unit` can change besides its own, apart from
  // the changes they are told of by mark_changed(). Replaces the default (every unit).
  void set_wakes(ClockedUnit* unit, std::vector<ClockedUnit*> woken);
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
  // Moves time forward to at least t without ticking anything (nothing was pending).
  void advance_to(Picos t);
  // Every unit's state, for error reports.
  std::string dump_state() const;
  const std::vector<ClockedUnit*>& units(ClockDomain domain) const {
    return domains_[index(domain)].units;
  }

 private:
  struct Wakes {
    bool all = true;
    std::vector<ClockedUnit*> units;
  };
  struct Domain {
    Clock clock;
    std::uint64_t cycle = 0;
    std::vector<ClockedUnit*> units;
    std::vector<Wakes> wakes;  // parallel to units
  };
  static std::size_t index(ClockDomain d) { return static_cast<std::size_t>(d); }
  // Earliest edge, over all domains, at which some unit has an event; kNever if none.
  Picos next_step_time();
  // The unit's next event, asked again only when it may have changed.
  Picos next_event(ClockedUnit* u);
  void mark_all_changed();

  std::array<Domain, kNumClockDomains> domains_;
  Picos now_ = 0;
  Picos deadlock_ps_;
  Picos last_progress_ps_ = 0;
  bool check_ = false;
};

}  // namespace sassim
