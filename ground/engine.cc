#include "ground/engine.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

#include "ground/error.h"

namespace sassim {
namespace {

// Tiles tick on the pool only after a step whose work took at least this long on one
// thread: handing a step out and waiting for it costs a few microseconds. (A DRAM or L2
// step of a memory-bound grid takes 5-20 us: at 20 us many ran on one thread.)
constexpr std::uint64_t kParallelWorkNs = 5'000;

}  // namespace

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
  if (!d.tiles.empty()) throw Error("internal: a unit added to a domain that has tiles");
  d.calendar.add(unit);
  d.wakes.emplace_back();
}

void Engine::set_wakes(ClockedUnit* unit, std::vector<ClockedUnit*> woken) {
  for (Domain& d : domains_) {
    for (std::size_t i = 0; i < d.calendar.size(); ++i) {
      if (d.calendar.unit(i) != unit) continue;
      d.wakes[i] = Wakes{false, std::move(woken)};
      return;
    }
  }
  throw Error(
      fmt::format("internal: set_wakes for {}, which the engine does not tick", unit->name()));
}

void Engine::set_tiles(ClockDomain domain, const std::vector<std::vector<ClockedUnit*>>& tiles) {
  Domain& d = domains_[index(domain)];
  const std::vector<ClockedUnit*>& units = d.calendar.units();
  for (const auto& tile : d.tiles) {
    for (std::size_t k : tile) units[k]->set_tiled(false);
  }
  d.tiles.clear();
  d.tiled_begin = d.tiled_end = 0;
  std::vector<int> tile_of(units.size(), -1);
  auto position = [&](const ClockedUnit* u) {
    for (std::size_t k = 0; k < units.size(); ++k) {
      if (units[k] == u) return k;
    }
    throw Error(fmt::format("internal: tile unit {} is not in its clock domain", u->name()));
  };
  std::vector<std::vector<std::size_t>> out;
  std::size_t lo = units.size(), hi = 0, count = 0;
  for (const auto& tile : tiles) {
    if (tile.empty()) continue;
    auto& indices = out.emplace_back();
    for (const ClockedUnit* u : tile) {
      const std::size_t k = position(u);
      if (tile_of[k] != -1) throw Error(fmt::format("internal: {} is in two tiles", u->name()));
      tile_of[k] = static_cast<int>(out.size() - 1);
      indices.push_back(k);
      lo = std::min(lo, k);
      hi = std::max(hi, k + 1);
      ++count;
    }
  }
  if (out.empty()) return;
  if (hi - lo != count) {
    throw Error("internal: the tiles of a clock domain are not a run of consecutive units");
  }
  for (std::size_t t = 0; t < out.size(); ++t) {
    for (std::size_t k : out[t]) {
      const Wakes& w = d.wakes[k];
      if (w.all) {
        throw Error(fmt::format("internal: tile unit {} declares no wakes", units[k]->name()));
      }
      for (const ClockedUnit* v : w.units) {
        for (std::size_t j = 0; j < units.size(); ++j) {
          if (units[j] == v && tile_of[j] != -1 && tile_of[j] != static_cast<int>(t)) {
            throw Error(fmt::format("internal: tile unit {} wakes {} of another tile",
                                    units[k]->name(), v->name()));
          }
        }
      }
    }
  }
  for (const auto& tile : out) {
    for (std::size_t k : tile) units[k]->set_tiled(true);
  }
  d.tile_of.assign(units.size(), 0);
  for (std::size_t k = lo; k < hi; ++k) d.tile_of[k] = static_cast<std::size_t>(tile_of[k]);
  d.ticked.assign(out.size(), {});
  d.errors.assign(out.size(), nullptr);
  d.is_pending.assign(out.size(), 0);
  d.pending.clear();
  d.tiles = std::move(out);
  d.tiled_begin = lo;
  d.tiled_end = hi;
  d.tile_work_ns = ~std::uint64_t{0};
}

void Engine::set_threads(unsigned threads) {
  if (threads == this->threads()) return;
  pool_ = threads > 1 ? std::make_unique<TickPool>(threads) : nullptr;
}

void Engine::mark_all_changed() {
  for (Domain& d : domains_) d.calendar.mark_all();
}

Picos Engine::next_step_time() {
  Picos best = kNever;
  for (Domain& d : domains_) {
    d.calendar.refresh(check_, now_);
    const Picos earliest = d.calendar.earliest();
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
  run_until(done, kNever);
}

bool Engine::run_until(const std::function<bool()>& done, Picos limit) {
  // A new run may have been handed work from outside; one that goes on after a stop at a
  // limit keeps counting (else a GPU stopping at every sync of a multi-GPU run would
  // never see a deadlock).
  if (!paused_at_limit_) last_progress_ps_ = std::max(last_progress_ps_, now_);
  paused_at_limit_ = false;
  mark_all_changed();
  while (!done()) {
    Picos t = next_step_time();
    if (t == kNever) {
      throw Error(fmt::format(
          "simulation stalled at {} ps: no unit can make progress but the work is not done\n{}",
          now_, dump_state()));
    }
    if (t > limit) {
      // Idle until the limit: the units' events stay where they are.
      now_ = std::max(now_, limit);
      for (Domain& d : domains_) d.cycle = std::max(d.cycle, now_ / d.clock.period_ps);
      paused_at_limit_ = true;
      return false;
    }
    now_ = t;
    bool progress = false;
    // Fixed domain order (DRAM, L2, core) and fixed unit order keep runs bit-identical.
    for (std::size_t i = kNumClockDomains; i-- > 0;) {
      Domain& d = domains_[i];
      if (t % d.clock.period_ps != 0) continue;
      d.cycle = t / d.clock.period_ps;
      progress |= tick_domain(d, t);
    }
    if (progress) {
      last_progress_ps_ = t;
    } else if (t - last_progress_ps_ > deadlock_ps_) {
      throw Error(fmt::format("deadlock: no unit made progress for {} core cycles (at {} ps)\n{}",
                              deadlock_ps_ / clock(ClockDomain::kCore).period_ps, now_,
                              dump_state()));
    }
  }
  return true;
}

bool Engine::tick_domain(Domain& d, Picos t) {
  UnitCalendar& cal = d.calendar;
  cal.take_due(t);
  bool progress = false;
  const std::size_t n = cal.size();
  // A tick can make a later unit due (or stale) within the step: the next candidate is
  // looked up after each one.
  for (std::size_t k = cal.next_candidate(0, n); k < n;) {
    if (k >= d.tiled_begin && k < d.tiled_end) {
      progress |= tick_tiles(d, t);
      k = cal.next_candidate(d.tiled_end, n);
      continue;
    }
    progress |= tick_unit(d, k, t).second;
    k = cal.next_candidate(k + 1, n);
  }
  cal.clear_due();
  return progress;
}

std::pair<bool, bool> Engine::tick_unit(Domain& d, std::size_t k, Picos t) {
  UnitCalendar& cal = d.calendar;
  if (cal.event(k) > t) return {false, false};
  ClockedUnit* u = cal.unit(k);
  const bool progress = u->tick(d.cycle, t);
  u->mark_changed();
  const Wakes& w = d.wakes[k];
  if (w.all) {
    mark_all_changed();
  } else {
    for (ClockedUnit* v : w.units) v->mark_changed();
  }
  return {true, progress};
}

struct Engine::TileStep {
  Engine* engine;
  Domain* domain;
  Picos t;
  std::atomic<bool> progress{false};
  std::atomic<bool> failed{false};
};

void Engine::tick_tile(void* context, std::size_t item) {
  auto& step = *static_cast<TileStep*>(context);
  Domain& d = *step.domain;
  const std::size_t tile = d.pending[item];
  try {
    bool progress = false;
    std::vector<ClockedUnit*>& ticked = d.ticked[tile];
    ticked.clear();
    for (std::size_t k : d.tiles[tile]) {
      const auto [t, p] = step.engine->tick_unit(d, k, step.t);
      if (t) ticked.push_back(d.calendar.unit(k));
      progress |= p;
    }
    if (progress) step.progress.store(true, std::memory_order_relaxed);
  } catch (...) {
    d.errors[tile] = std::current_exception();
    step.failed.store(true, std::memory_order_relaxed);
  }
}

bool Engine::tick_tiles(Domain& d, Picos t) {
  // The tiles with a unit due or stale, in tile order; a tile's units are woken only
  // by units of the tile or ticked before the tiles.
  d.pending.clear();
  for (std::size_t k = d.calendar.next_candidate(d.tiled_begin, d.tiled_end); k < d.tiled_end;
       k = d.calendar.next_candidate(k + 1, d.tiled_end)) {
    const std::size_t tile = d.tile_of[k];
    if (d.is_pending[tile] == 0) {
      d.is_pending[tile] = 1;
      d.pending.push_back(tile);
    }
  }
  std::sort(d.pending.begin(), d.pending.end());
  for (std::size_t tile : d.pending) d.is_pending[tile] = 0;
  TileStep step{this, &d, t, {}, {}};
  // Steps with one tile at work (a small kernel, a tail) or little work in all (a
  // DRAM refresh) cost less on this thread than handing them out. Which way a step
  // goes never changes its outcome.
  const auto start = std::chrono::steady_clock::now();
  const bool parallel = pool_ && d.pending.size() > 1 && d.tile_work_ns >= kParallelWorkNs;
  if (parallel) {
    pool_->run(&Engine::tick_tile, &step, d.pending.size());
  } else {
    for (std::size_t i = 0; i < d.pending.size(); ++i) tick_tile(&step, i);
  }
  if (d.pending.size() > 1) {
    const auto elapsed =
        static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                       std::chrono::steady_clock::now() - start)
                                       .count());
    // The work of the step on one thread, roughly.
    d.tile_work_ns = parallel ? elapsed * pool_->threads() : elapsed;
  }
  if (step.failed.load(std::memory_order_relaxed)) {
    std::exception_ptr first;
    for (std::exception_ptr& e : d.errors) {
      if (e && !first) first = e;
      e = nullptr;
    }
    std::rethrow_exception(first);
  }
  for (std::size_t tile : d.pending) {
    for (ClockedUnit* u : d.ticked[tile]) u->publish();
  }
  return step.progress.load(std::memory_order_relaxed);
}

std::string Engine::dump_state() const {
  std::string out;
  for (const Domain& d : domains_) {
    for (const ClockedUnit* u : d.calendar.units()) {
      if (!u->busy()) continue;
      out += fmt::format("  {}: {}\n", u->name(), u->describe_state());
    }
  }
  return out.empty() ? "  (no unit holds work)\n" : out;
}

}  // namespace sassim
