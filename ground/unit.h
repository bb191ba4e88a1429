#pragma once
// Building blocks shared by every timed unit: the picosecond time base, clocks,
// the unit interface the engine drives, and the sink units report counters into.
#include <atomic>
#include <cstdint>
#include <deque>
#include <limits>
#include <memory>
#include <string>
#include <string_view>

namespace sassim {

using Picos = std::uint64_t;  // simulated time in picoseconds
inline constexpr Picos kNever = std::numeric_limits<Picos>::max();

enum class ClockDomain : std::uint8_t { kCore, kL2, kDram };
inline constexpr std::size_t kNumClockDomains = 3;

// A clock: cycle n has its rising edge at n * period_ps.
struct Clock {
  Picos period_ps = 1000;
  Picos edge(std::uint64_t cycle) const { return cycle * period_ps; }
  // First cycle whose edge is at or after t.
  std::uint64_t cycle_at_or_after(Picos t) const { return (t + period_ps - 1) / period_ps; }
  static Clock from_mhz(double mhz) { return Clock{static_cast<Picos>(1'000'000.0 / mhz + 0.5)}; }
};

// Receives counters by hierarchical name ("gpu.sm[3].l1.hits"). A unit reports the
// same counters in the same order every time: the stats registry names them once and
// afterwards records only the values.
class StatSink {
 public:
  virtual ~StatSink() = default;
  virtual void add(std::string_view name, double value) = 0;
  // "<unit>.<counter>" and "<unit>.<group>.<counter>" ("gpu.sm[3]", "warp_cycles",
  // "wait"): a sink that keeps values only does not build the name.
  virtual void add_counter(std::string_view unit, std::string_view counter, double value) {
    add_counter(unit, {}, counter, value);
  }
  virtual void add_counter(std::string_view unit, std::string_view group, std::string_view counter,
                           double value) {
    std::string name;
    name.reserve(unit.size() + group.size() + counter.size() + 2);
    name.append(unit).append(1, '.');
    if (!group.empty()) name.append(group).append(1, '.');
    name.append(counter);
    add(name, value);
  }
};

class UnitCalendar;

// Which units of a clock domain may have a new next event: a bit per unit, set from
// any host thread (UnitCalendar).
struct StaleBits {
  std::deque<std::atomic<std::uint64_t>> words;  // a deque keeps each word in place
};

// A hardware unit ticked by the engine in its clock domain.
class ClockedUnit {
 public:
  virtual ~ClockedUnit() = default;
  // Tells the engine that next_event_ps() may have changed other than by the unit's
  // own tick: another unit handed it work (a Link push rings its doorbell, which calls
  // this; an entry point another unit calls does). The engine keeps each unit's next
  // event between steps and asks the unit again only after this, after the unit was
  // ticked, or after a unit declared to wake it was ticked (Engine::set_wakes).
  // Safe to call from any host thread (tiles ticking in parallel ring shared doorbells).
  void mark_changed() {
    if (stale_word_ != nullptr &&
        (stale_word_->load(std::memory_order_relaxed) & stale_bit_) == 0) {
      stale_word_->fetch_or(stale_bit_, std::memory_order_relaxed);
    }
  }
  // Advances the unit by one cycle of its clock; `now` is the edge's time.
  // Returns true when anything moved (used to detect deadlock).
  virtual bool tick(std::uint64_t cycle, Picos now) = 0;
  // Earliest time at which tick() could make progress with no new input arriving
  // from elsewhere (including items already waiting in its input queues); kNever
  // when it waits only on others. Must be cheap: it is asked every step.
  virtual Picos next_event_ps() const = 0;
  // True while the unit holds work (requests in flight, warps resident).
  virtual bool busy() const = 0;
  // Hierarchical instance name ("gpu.l2.slice[5]").
  virtual const std::string& name() const = 0;
  // One-paragraph human-readable state, for the deadlock dump.
  virtual std::string describe_state() const = 0;
  // Adds the unit's counters under its name.
  virtual void report(StatSink& sink) const = 0;
  // Told when the unit joins (true) or leaves a tile (Engine::set_tiles). A unit that
  // pushes into Links other tiles' units push into too keeps those pushes while in a
  // tile and hands them on in publish(), which the engine calls after every tile of
  // the step has ticked, tile by tile, for the units that ticked: the Links then see
  // the pushes in the order of one thread. Valid only where the unit's tick does not
  // read what the held pushes would change (e.g. a Link that can never be full).
  virtual void set_tiled(bool /*tiled*/) {}
  virtual void publish() {}

 private:
  friend class UnitCalendar;
  std::shared_ptr<StaleBits> stale_bits_;  // the engine's, once it ticks the unit
  std::atomic<std::uint64_t>* stale_word_ = nullptr;
  std::uint64_t stale_bit_ = 0;
};

}  // namespace sassim
