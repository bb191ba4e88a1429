// Where every resident warp's cycles go: one Nsight-named state per warp per cycle,
// decided before issue (then "selected" for the warp that issued) and held until the
// next SM tick.
//
// Incremental: a warp's state is recomputed only when it may have changed. Each
// classification records the cycle until which the passage of time alone cannot
// change it and whether it depends on its sub-core's pipes and dispatch or on the
// address stage's fullness; the warp's own events (issue, advance, completions that
// move it) mark it for reclassification. Counting a state's cycles is deferred until
// the state changes, which sums the same cycles as counting them every tick.
#include <bit>
#include <optional>

#include <fmt/format.h>

#include "isa/error.h"
#include "sim/sm.h"
#include "sim/sm_internal.h"

namespace sassim::sim {

namespace {

constexpr std::uint8_t kOnIssue = 1;         // the sub-core's pipes and dispatch
constexpr std::uint8_t kOnAddressStage = 2;  // the address stage's fullness

}  // namespace

void Sm::account(Warp& w, std::uint64_t cycle, WarpCycleState next) {
  // The cycles up to the last account_all's from_cycle (it would have counted them had
  // it visited the warp), then those up to `cycle`.
  std::uint64_t& count = counters_.warp_cycles[static_cast<std::size_t>(w.cycle_state)];
  if (w.since_seq != account_seq_ && flushed_to_ > w.state_since) {
    count += flushed_to_ - w.state_since;
    w.state_since = flushed_to_;
  }
  if (cycle > w.state_since) {
    count += cycle - w.state_since;
    w.state_since = cycle;
  }
  w.since_seq = account_seq_;
  w.cycle_state = next;
}

void Sm::reclassify(unsigned slot) {
  const auto n = static_cast<unsigned>(sub_cores_.size());
  sub_cores_[slot % n].reclassify |= std::uint64_t{1} << (slot / n);
}

void Sm::note_issue(SubCore& sub, unsigned slot) {
  sub.reclassify |= sub.depends_on_issue | std::uint64_t{1} << (slot / sub_cores_.size());
}

Sm::WarpClass Sm::classify(const Warp& w, const SubCore& sub, std::uint64_t cycle) const {
  switch (w.state) {
    case WarpState::kAtBarrier:
    case WarpState::kWaitMbarrier:
      return {WarpCycleState::kBarrier};
    case WarpState::kWaitMemory:
      return {w.wait_async_only ? WarpCycleState::kLongScoreboard : WarpCycleState::kMembar};
    case WarpState::kDraining:
    case WarpState::kFree:
      return {WarpCycleState::kDrain};
    case WarpState::kRunning:
      break;
  }
  const auto slot = static_cast<unsigned>(&w - warps_.data());
  if (std::optional<WarpCycleState> fetch = frontend_.stall(slot, cycle)) {
    return {*fetch, frontend_.stall_end(slot, cycle)};
  }
  const bool dispatch_held = sub.dispatch_free > cycle;
  if (dispatch_held && sub.dispatch_slot == slot) {
    return {WarpCycleState::kDispatchStall, sub.dispatch_free};
  }
  const KernelContext& kernel = kernel_of(w);
  if (w.ready_cycle > cycle && kernel.control != nullptr) return {w.control_wait, w.ready_cycle};
  const isa::WarpInst& wi = (*w.insts)[w.next];
  const isa::StaticInst& si = (*kernel.statics)[wi.static_index];
  if (w.ready_cycle == kNeverCycle) {
    auto pending_shared = [&](std::uint16_t r) {
      return w.reg_ready[r] == kNeverCycle && w.reg_pending_shared[r];
    };
    for (std::uint8_t i = 0; i < si.num_src; ++i) {
      if (pending_shared(si.src[i])) return {WarpCycleState::kShortScoreboard};
    }
    return {WarpCycleState::kLongScoreboard};
  }
  if (w.ready_cycle > cycle) return {WarpCycleState::kWait, w.ready_cycle};
  const bool memory = si.op.mem != isa::MemKind::kNone && wi.addr_count > 0;
  const std::uint8_t depends = memory ? kOnIssue | kOnAddressStage : kOnIssue;
  const std::uint64_t unit_free = sub.unit_free[static_cast<std::size_t>(si.op.unit)];
  if (unit_free > cycle) {
    return {si.op.unit == isa::UnitClass::kMemory ? WarpCycleState::kLgThrottle
                                                  : WarpCycleState::kMathPipeThrottle,
            unit_free, depends};
  }
  if (memory && address_stage_.full()) return {WarpCycleState::kLgThrottle, kNeverCycle, depends};
  if (dispatch_held) return {WarpCycleState::kDispatchStall, sub.dispatch_free, depends};
  return {WarpCycleState::kNotSelected, kNeverCycle, depends};
}

void Sm::reclassify_changed(std::uint64_t from_cycle, std::uint64_t state_cycle) {
  const bool stage_full = address_stage_.full();
  const bool stage_changed = stage_full != address_stage_was_full_;
  address_stage_was_full_ = stage_full;
  const bool expiry = state_cycle >= next_expiry_;
  if (expiry) next_expiry_ = kNeverCycle;
  for (SubCore& sub : sub_cores_) {
    std::uint64_t todo = sub.reclassify | (stage_changed ? sub.depends_on_address_stage : 0);
    sub.reclassify = 0;
    if (expiry) {
      for (std::size_t i = 0; i < sub.slots.size(); ++i) {
        const Warp& w = warps_[sub.slots[i]];
        if (w.state == WarpState::kFree) continue;
        if (w.state_valid_until <= state_cycle) {
          todo |= std::uint64_t{1} << i;
        } else {
          next_expiry_ = std::min(next_expiry_, w.state_valid_until);
        }
      }
    }
    while (todo != 0) {
      const auto i = static_cast<unsigned>(std::countr_zero(todo));
      const std::uint64_t bit = std::uint64_t{1} << i;
      todo &= todo - 1;
      Warp& w = warps_[sub.slots[i]];
      sub.depends_on_issue &= ~bit;
      sub.depends_on_address_stage &= ~bit;
      if (w.state == WarpState::kFree) continue;
      const WarpClass c = classify(w, sub, state_cycle);
      w.state_valid_until = c.until;
      next_expiry_ = std::min(next_expiry_, c.until);
      if ((c.depends & kOnIssue) != 0) sub.depends_on_issue |= bit;
      if ((c.depends & kOnAddressStage) != 0) sub.depends_on_address_stage |= bit;
      if (c.state != w.cycle_state) account(w, from_cycle, c.state);
    }
  }
}

void Sm::check_warp_states(std::uint64_t state_cycle) const {
  for (const SubCore& sub : sub_cores_) {
    for (unsigned slot : sub.slots) {
      const Warp& w = warps_[slot];
      if (w.state == WarpState::kFree) continue;
      const WarpCycleState fresh = classify(w, sub, state_cycle).state;
      if (fresh != w.cycle_state) {
        throw Error(fmt::format("{}: warp slot {} held state {} at cycle {} but is in state {}",
                                name_, slot, warp_cycle_state_name(w.cycle_state), state_cycle,
                                warp_cycle_state_name(fresh)));
      }
    }
  }
}

void Sm::account_all(std::uint64_t from_cycle, std::uint64_t state_cycle) {
  if (accounting_ == WarpStateAccounting::kFull) {
    for (const SubCore& sub : sub_cores_) {
      for (unsigned slot : sub.slots) {
        Warp& w = warps_[slot];
        if (w.state != WarpState::kFree)
          account(w, from_cycle, classify(w, sub, state_cycle).state);
      }
    }
  } else {
    reclassify_changed(from_cycle, state_cycle);
    if (accounting_ == WarpStateAccounting::kChecked) check_warp_states(state_cycle);
  }
  ++account_seq_;
  flushed_to_ = from_cycle;
}

std::array<std::uint64_t, kNumWarpCycleStates> Sm::warp_cycles() const {
  std::array<std::uint64_t, kNumWarpCycleStates> cycles = counters_.warp_cycles;
  for (const Warp& w : warps_) {
    if (w.state != WarpState::kFree && w.since_seq != account_seq_ && flushed_to_ > w.state_since)
      cycles[static_cast<std::size_t>(w.cycle_state)] += flushed_to_ - w.state_since;
  }
  return cycles;
}

}  // namespace sassim::sim
