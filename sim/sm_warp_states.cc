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

#include "ground/error.h"
#include "sim/sm.h"
#include "sim/sub_core.h"
#include "sim/warp_class.h"

namespace sassim::sim {

namespace {

constexpr std::uint8_t kOnIssue = 1;         // the sub-core's pipes and dispatch
constexpr std::uint8_t kOnAddressStage = 2;  // the address stage's fullness
constexpr std::uint8_t kFetchStall = 4;      // held by the front end

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

WarpClass Sm::classify(const Warp& w, const SubCore& sub, std::uint64_t cycle) const {
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
    return {*fetch, frontend_.stall_end(slot, cycle), kFetchStall};
  }
  const bool dispatch_held = sub.dispatch_free > cycle;
  if (dispatch_held && sub.dispatch_slot == slot) {
    return {WarpCycleState::kDispatchStall, sub.dispatch_free};
  }
  const KernelContext& kernel = kernel_of(w);
  if (w.ready_cycle > cycle && kernel.control != nullptr) return {w.control_wait, w.ready_cycle};
  const isa::StaticInst& si = *w.next_inst.si;
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
  const std::uint64_t unit_free = sub.unit_free[static_cast<std::size_t>(si.op.unit)];
  if (unit_free > cycle) {
    return {si.op.unit == isa::UnitClass::kMemory ? memory_throttle(si)
                                                  : WarpCycleState::kMathPipeThrottle,
            unit_free, kOnIssue};
  }
  const bool memory = w.next_inst.memory;
  const std::uint8_t depends = memory ? kOnIssue | kOnAddressStage : kOnIssue;
  if (memory)
    return after_address_stage(sub, cycle, lsu_.path_full(sub.index, si), memory_throttle(si));
  if (dispatch_held) return {WarpCycleState::kDispatchStall, sub.dispatch_free, depends};
  return {WarpCycleState::kNotSelected, kNeverCycle, depends};
}

WarpCycleState Sm::memory_throttle(const isa::StaticInst& si) {
  // Nsight Compute counts shared-memory instructions waiting for the memory pipe as
  // mio_throttle (the MIO queue) and global / local ones as lg_throttle.
  return si.op.space == isa::MemSpace::kShared ? WarpCycleState::kMioThrottle
                                               : WarpCycleState::kLgThrottle;
}

WarpClass Sm::after_address_stage(const SubCore& sub, std::uint64_t cycle, bool full,
                                  WarpCycleState throttle) {
  constexpr std::uint8_t kDepends = kOnIssue | kOnAddressStage;
  if (full) return {throttle, kNeverCycle, kDepends};
  if (sub.dispatch_free > cycle)
    return {WarpCycleState::kDispatchStall, sub.dispatch_free, kDepends};
  return {WarpCycleState::kNotSelected, kNeverCycle, kDepends};
}

void Sm::set_class(SubCore& sub, unsigned local, const WarpClass& c) {
  const std::uint64_t bit = std::uint64_t{1} << local;
  sub.state_until[local] = c.until;
  next_expiry_ = std::min(next_expiry_, c.until);
  sub.depends_on_issue &= ~bit;
  sub.depends_on_address_stage &= ~bit;
  sub.fetch_stalled &= ~bit;
  sub.blocked &= ~bit;
  if ((c.depends & kOnIssue) != 0) sub.depends_on_issue |= bit;
  if ((c.depends & kOnAddressStage) != 0) sub.depends_on_address_stage |= bit;
  if ((c.depends & kFetchStall) != 0) sub.fetch_stalled |= bit;
  if (c.until == kNeverCycle && (c.depends & kOnIssue) == 0) sub.blocked |= bit;
}

void Sm::reclassify_changed(std::uint64_t from_cycle, std::uint64_t state_cycle) {
  const bool stage_full = lsu_.stage_full();
  const bool stage_changed = stage_full != address_stage_was_full_;
  address_stage_was_full_ = stage_full;
  const bool expiry = state_cycle >= next_expiry_;
  if (expiry) next_expiry_ = kNeverCycle;
  for (SubCore& sub : sub_cores_) {
    std::uint64_t marked = sub.reclassify;
    sub.reclassify = 0;
    if (expiry) {
      for (std::size_t i = 0; i < sub.state_until.size(); ++i) {
        if (sub.state_until[i] <= state_cycle) {
          marked |= std::uint64_t{1} << i;
        } else {
          next_expiry_ = std::min(next_expiry_, sub.state_until[i]);
        }
      }
    }
    for (std::uint64_t m = marked; m != 0; m &= m - 1) {
      const auto i = static_cast<unsigned>(std::countr_zero(m));
      Warp& w = warps_[sub.slots[i]];
      if (w.state == WarpState::kFree) {
        set_class(sub, i, {WarpCycleState::kDrain});
        continue;
      }
      const WarpClass c = classify(w, sub, state_cycle);
      set_class(sub, i, c);
      if (c.state != w.cycle_state) account(w, from_cycle, c.state);
    }
    // Ready memory instructions whose only change is the room in the address stage or
    // the sub-core's LSU queue.
    const bool queue_changed = lsu_.queue_size(sub.index) != sub.lsu_queue_seen;
    sub.lsu_queue_seen = lsu_.queue_size(sub.index);
    if (!stage_changed && !queue_changed) continue;
    for (std::uint64_t m = sub.depends_on_address_stage & ~marked; m != 0; m &= m - 1) {
      const auto i = static_cast<unsigned>(std::countr_zero(m));
      Warp& w = warps_[sub.slots[i]];
      const isa::StaticInst& si = *w.next_inst.si;
      const WarpClass c =
          after_address_stage(sub, state_cycle, lsu_.path_full(sub.index, si), memory_throttle(si));
      set_class(sub, i, c);
      if (c.state != w.cycle_state) account(w, from_cycle, c.state);
    }
  }
}

void Sm::check_warp_states(std::uint64_t state_cycle) const {
  for (const SubCore& sub : sub_cores_) {
    for (unsigned slot : sub.slots) {
      const Warp& w = warps_[slot];
      if (w.state == WarpState::kFree) continue;
      if (w.next_inst != read_next(w)) {
        throw Error(fmt::format("{}: warp slot {} holds stale facts about its instruction {}",
                                name_, slot, w.next));
      }
      const WarpCycleState fresh = classify(w, sub, state_cycle).state;
      if (fresh != w.cycle_state) {
        throw Error(fmt::format("{}: warp slot {} held state {} at cycle {} but is in state {}",
                                name_, slot, warp_cycle_state_name(w.cycle_state), state_cycle,
                                warp_cycle_state_name(fresh)));
      }
    }
  }
}

std::uint64_t Sm::all_slots(const SubCore& sub) {
  return sub.slots.size() >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << sub.slots.size()) - 1;
}

std::uint64_t Sm::issue_candidates(const SubCore& sub) const {
  // Warps that passed their ready cycle when last classified, those the front end
  // held (issue does not look at it) and those marked since.
  // A full address stage holds the ready memory instructions.
  if (accounting_ == WarpStateAccounting::kFull) return all_slots(sub);
  std::uint64_t candidates = sub.depends_on_issue | sub.fetch_stalled | sub.reclassify;
  if (!lsu_.has_queues() && lsu_.stage_full())
    candidates &= ~(sub.depends_on_address_stage & ~sub.reclassify);
  return candidates;
}

std::uint64_t Sm::timed_warps(const SubCore& sub) const {
  // All but the warps that wait for an event: not running, or waiting for a load.
  if (accounting_ == WarpStateAccounting::kFull) return all_slots(sub);
  return all_slots(sub) & ~sub.blocked;
}

void Sm::check_issue_candidates(const SubCore& sub, std::uint64_t cycle,
                                std::uint64_t ready) const {
  std::uint64_t all = 0;
  for (std::size_t i = 0; i < sub.slots.size(); ++i) {
    if (can_issue(sub.slots[i], sub, cycle)) all |= std::uint64_t{1} << i;
  }
  if (all != ready) {
    throw Error(
        fmt::format("{}: at cycle {} the warps {:#x} of a sub-core can issue, the "
                    "candidates give {:#x}",
                    name_, cycle, all, ready));
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
  if (resident_ctas_ == 0) return cycles;  // every warp slot is free
  for (const Warp& w : warps_) {
    if (w.state != WarpState::kFree && w.since_seq != account_seq_ && flushed_to_ > w.state_since)
      cycles[static_cast<std::size_t>(w.cycle_state)] += flushed_to_ - w.state_since;
  }
  return cycles;
}

}  // namespace sassim::sim
