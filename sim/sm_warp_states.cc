// Where every resident warp's cycles go: one Nsight-named state per warp per cycle,
// decided before issue (then "selected" for the warp that issued) and held until the
// next SM tick.
#include <optional>

#include "sim/sm.h"
#include "sim/sm_internal.h"

namespace sassim::sim {

void Sm::account(Warp& w, std::uint64_t cycle, WarpCycleState next) {
  if (cycle > w.state_since) {
    counters_.warp_cycles[static_cast<std::size_t>(w.cycle_state)] += cycle - w.state_since;
    w.state_since = cycle;
  }
  w.cycle_state = next;
}

WarpCycleState Sm::classify(const Warp& w, const SubCore& sub, std::uint64_t cycle) const {
  switch (w.state) {
    case WarpState::kAtBarrier:
    case WarpState::kWaitMbarrier:
      return WarpCycleState::kBarrier;
    case WarpState::kWaitMemory:
      return w.wait_async_only ? WarpCycleState::kLongScoreboard : WarpCycleState::kMembar;
    case WarpState::kDraining:
    case WarpState::kFree:
      return WarpCycleState::kDrain;
    case WarpState::kRunning:
      break;
  }
  const auto slot = static_cast<unsigned>(&w - warps_.data());
  if (std::optional<WarpCycleState> fetch = frontend_.stall(slot, cycle)) return *fetch;
  const bool dispatch_held = sub.dispatch_free > cycle;
  if (dispatch_held && sub.dispatch_slot == slot) return WarpCycleState::kDispatchStall;
  if (w.ready_cycle > cycle && kernel_of(w).control != nullptr) return w.control_wait;
  const isa::WarpInst& wi = (*w.insts)[w.next];
  const isa::StaticInst& si = (*kernel_of(w).statics)[wi.static_index];
  if (w.ready_cycle == kNeverCycle) {
    auto pending_shared = [&](std::uint16_t r) {
      return w.reg_ready[r] == kNeverCycle && w.reg_pending_shared[r];
    };
    for (std::uint8_t i = 0; i < si.num_src; ++i) {
      if (pending_shared(si.src[i])) return WarpCycleState::kShortScoreboard;
    }
    return WarpCycleState::kLongScoreboard;
  }
  if (w.ready_cycle > cycle) return WarpCycleState::kWait;
  const bool memory = si.op.mem != isa::MemKind::kNone && wi.addr_count > 0;
  if (sub.unit_free[static_cast<std::size_t>(si.op.unit)] > cycle) {
    return si.op.unit == isa::UnitClass::kMemory ? WarpCycleState::kLgThrottle
                                                 : WarpCycleState::kMathPipeThrottle;
  }
  if (memory && address_stage_.full()) return WarpCycleState::kLgThrottle;
  return dispatch_held ? WarpCycleState::kDispatchStall : WarpCycleState::kNotSelected;
}

void Sm::account_all(std::uint64_t from_cycle, std::uint64_t state_cycle) {
  for (std::size_t s = 0; s < sub_cores_.size(); ++s) {
    const SubCore& sub = sub_cores_[s];
    for (unsigned slot : sub.slots) {
      Warp& w = warps_[slot];
      if (w.state != WarpState::kFree) account(w, from_cycle, classify(w, sub, state_cycle));
    }
  }
}

}  // namespace sassim::sim
