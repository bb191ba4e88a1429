#include "memsys/engine.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

#include "isa/error.h"

namespace sassim {

Engine::Engine(Clock core, Clock l2, Clock dram, std::uint64_t deadlock_core_cycles)
    : deadlock_ps_(core.edge(deadlock_core_cycles)) {
  domains_[index(ClockDomain::kCore)].clock = core;
  domains_[index(ClockDomain::kL2)].clock = l2;
  domains_[index(ClockDomain::kDram)].clock = dram;
  const char* check = std::getenv("SASSIM_ENGINE_CHECK");
  check_ = check != nullptr && std::strcmp(check, "1") == 0;
}

void Engine::add(ClockDomain domain, ClockedUnit* unit) {
  Domain& d = domains_[index(domain)];
  d.units.push_back(unit);
  d.wakes.emplace_back();
  unit->next_event_stale_ = true;
}

void Engine::set_wakes(ClockedUnit* unit, std::vector<ClockedUnit*> woken) {
  for (Domain& d : domains_) {
    for (std::size_t i = 0; i < d.units.size(); ++i) {
      if (d.units[i] != unit) continue;
      d.wakes[i] = Wakes{false, std::move(woken)};
      return;
    }
  }
  throw Error(
      fmt::format("internal: set_wakes for {}, which the engine does not tick", unit->name()));
}

void Engine::mark_all_changed() {
  for (Domain& d : domains_) {
    for (ClockedUnit* u : d.units) u->next_event_stale_ = true;
  }
}

Picos Engine::next_event(ClockedUnit* u) {
  if (u->next_event_stale_) {
    u->cached_next_event_ps_ = u->next_event_ps();
    u->next_event_stale_ = false;
  } else if (check_ && u->cached_next_event_ps_ != u->next_event_ps()) {
    throw Error(fmt::format(
        "internal: the engine kept {} ps as the next event of {}, which now reports {} ps "
        "(at {} ps): a unit handed it work without waking it",
        u->cached_next_event_ps_, u->name(), u->next_event_ps(), now_));
  }
  return u->cached_next_event_ps_;
}

Picos Engine::next_step_time() {
  Picos best = kNever;
  for (Domain& d : domains_) {
    Picos earliest = kNever;
    for (ClockedUnit* u : d.units) earliest = std::min(earliest, next_event(u));
    if (earliest == kNever) continue;
    // The first edge of this domain strictly after now and not before the event.
    std::uint64_t c = std::max(d.clock.cycle_at_or_after(earliest), d.cycle + 1);
    if (d.clock.edge(c) <= now_) c = d.clock.cycle_at_or_after(now_ + 1);
    best = std::min(best, d.clock.edge(c));
  }
  return best;
}

void Engine::advance_to(Picos t) {
  if (t <= now_) return;
  now_ = t;
  last_progress_ps_ = t;
  for (Domain& d : domains_) d.cycle = std::max(d.cycle, t / d.clock.period_ps);
}

void Engine::run_until(const std::function<bool()>& done) {
  last_progress_ps_ = std::max(last_progress_ps_, now_);
  mark_all_changed();
  while (!done()) {
    Picos t = next_step_time();
    if (t == kNever) {
      throw Error(fmt::format(
          "simulation stalled at {} ps: no unit can make progress but the work is not done\n{}",
          now_, dump_state()));
    }
    now_ = t;
    bool progress = false;
    // Fixed domain order (DRAM, L2, core) and fixed unit order keep runs bit-identical.
    for (std::size_t i = kNumClockDomains; i-- > 0;) {
      Domain& d = domains_[i];
      if (t % d.clock.period_ps != 0) continue;
      d.cycle = t / d.clock.period_ps;
      for (std::size_t k = 0; k < d.units.size(); ++k) {
        ClockedUnit* u = d.units[k];
        if (next_event(u) > t) continue;
        progress |= u->tick(d.cycle, t);
        u->next_event_stale_ = true;
        const Wakes& w = d.wakes[k];
        if (w.all) {
          mark_all_changed();
        } else {
          for (ClockedUnit* v : w.units) v->next_event_stale_ = true;
        }
      }
    }
    if (progress) {
      last_progress_ps_ = t;
    } else if (t - last_progress_ps_ > deadlock_ps_) {
      throw Error(fmt::format("deadlock: no unit made progress for {} core cycles (at {} ps)\n{}",
                              deadlock_ps_ / clock(ClockDomain::kCore).period_ps, now_,
                              dump_state()));
    }
  }
}

std::string Engine::dump_state() const {
  std::string out;
  for (const Domain& d : domains_) {
    for (const ClockedUnit* u : d.units) {
      if (!u->busy()) continue;
      out += fmt::format("  {}: {}\n", u->name(), u->describe_state());
    }
  }
  return out.empty() ? "  (no unit holds work)\n" : out;
}

}  // namespace sassim
