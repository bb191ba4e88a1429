// Warpgroup matrix instructions on the SM (Hopper wgmma): the warps' side of
// WarpgroupMmaPipe. A wgmma's accumulator registers are pending from its issue until
// its operation starts (the last warp of the warpgroup issued it), and then ready at
// the operation's end. A wgmma does not wait for the pending accumulator of an earlier
// wgmma (the tensor units run them in order); any other reader or writer of those
// registers wait for the end; WARPGROUP.DEPBAR.LE gsb0, N waits for the end of the
// committed groups but the newest N.
#include <algorithm>

#include <fmt/format.h>

#include "isa/warpgroup.h"
#include "sim/control_bits.h"
#include "sim/exec_timing.h"
#include "sim/sm.h"
#include "sim/sm_cta_slot.h"
#include "sim/sub_core.h"

namespace sassim::sim {
namespace {

bool in_destination(const isa::StaticInst& si, std::uint16_t reg) {
  for (std::uint8_t d = 0; d < si.num_dst; ++d) {
    if (reg >= si.dst[d].first && reg < si.dst[d].first + si.dst[d].count) return true;
  }
  return false;
}

// Traces do not record descriptors: A is in registers when the instruction reads a
// register outside its accumulator.
bool a_from_shared(const isa::StaticInst& si) {
  for (std::uint8_t s = 0; s < si.num_src; ++s) {
    if (!in_destination(si, si.src[s])) return false;
  }
  return true;
}

}  // namespace

std::uint64_t Sm::warpgroup_mma_ready(const Warp& w, const isa::StaticInst& si,
                                      std::uint64_t earliest) const {
  std::uint64_t ready = earliest;
  for (std::uint8_t s = 0; s < si.num_src; ++s) {
    if (!in_destination(si, si.src[s])) ready = std::max(ready, w.reg_ready[si.src[s]]);
  }
  return ready;
}

void Sm::issue_warpgroup_mma(unsigned slot, const isa::StaticInst& si, const isa::WarpInst& wi,
                             std::uint64_t cycle, Picos now) {
  Warp& w = warps_[slot];
  const ControlBitsTable* control = kernel_of(w).control;
  const bool commits = control != nullptr && (*control)[wi.static_index].wgmma_commit;
  for (std::uint8_t d = 0; d < si.num_dst; ++d) {
    const isa::RegRange& r = si.dst[d];
    for (unsigned k = 0; k < r.count && r.first + k < w.reg_ready.size(); ++k) {
      w.reg_ready[r.first + k] = kNeverCycle;
      w.reg_pending_shared[r.first + k] = false;
      w.reg_loaded[r.first + k] = false;
    }
  }
  wgmma_warps_[slot].not_started.push_back(&si);
  wgmma_warps_[slot].issued(commits);

  const CtaSlot& c = ctas_[w.cta_slot];
  const auto index = static_cast<std::uint32_t>(
      std::find(c.warp_slots.begin(), c.warp_slots.end(), slot) - c.warp_slots.begin());
  const std::uint32_t group = index / 4;
  const std::uint32_t members = std::min<std::uint32_t>(4, c.resources.warps - group * 4);
  const ExecTiming& timing = *kernel_of(w).timing;
  const WarpgroupMmaPipe::Timing t{timing.latency(si.op), timing.interval(si.op),
                                   isa::warpgroup_shared_bytes(si.op.matrix, a_from_shared(si))};
  const auto started = wgmma_.arrive(w.cta_slot, group, index % 4, members, cycle, now, t);
  if (!started) return;
  counters_.tensor_busy_cycles += std::uint64_t{started->interval} * sub_cores_.size();
  for (std::uint32_t m = 0; m < members; ++m) {
    const unsigned member = c.warp_slots[group * 4 + m];
    Warp& mw = warps_[member];
    WarpgroupMmaWarp& state = wgmma_warps_[member];
    reclassify(member);  // its registers' ready cycles change
    const isa::StaticInst& msi = *state.not_started.front();
    state.not_started.pop_front();
    state.last_done = std::max(state.last_done, started->done);
    state.started(started->done);
    for (std::uint8_t d = 0; d < msi.num_dst; ++d) {
      const isa::RegRange& r = msi.dst[d];
      for (unsigned k = 0; k < r.count && r.first + k < mw.reg_ready.size(); ++k)
        mw.reg_ready[r.first + k] = started->done;
    }
    // The issuing warp moves on in execute(); the others may wait for these registers.
    if (member == slot || mw.state != WarpState::kRunning || !mw.has_next()) continue;
    if (state.waiting) {
      const auto release = state.release(state.wait_pending);
      if (!release) continue;
      state.waiting = false;
      advance(member, std::max(mw.min_issue_cycle, *release));
    } else if (mw.ready_cycle == kNeverCycle) {
      advance(member, mw.min_issue_cycle);
    }
  }
}

void Sm::wait_for_warpgroup_mma(unsigned slot, const isa::WarpInst& wi, std::uint64_t cycle) {
  // WARPGROUP.DEPBAR.LE gsb0, N: with a listing, N and the groups' commits come from it;
  // traces record neither, so without one it waits for every operation issued before it.
  Warp& w = warps_[slot];
  const ControlBitsTable* control = kernel_of(w).control;
  const std::uint8_t pending =
      control != nullptr ? (*control)[wi.static_index].wgmma_pending : kNoWgmmaPending;
  WarpgroupMmaWarp& state = wgmma_warps_[slot];
  if (!w.has_next()) {
    advance(slot, std::max(cycle + 1, state.last_done));
    return;
  }
  if (const auto release = state.release(pending)) {
    advance(slot, std::max(cycle + 1, *release));
    return;
  }
  state.wait_pending = pending;
  state.waiting = true;
  w.min_issue_cycle = cycle + 1;
  w.ready_cycle = kNeverCycle;
}

void Sm::report_tensor(StatSink& sink) const {
  for (std::size_t t = 1; t < kNumTensorTypes; ++t) {
    sink.add_counter(name_, "tensor_flops", isa::mma_type_name(static_cast<isa::MmaType>(t)),
                     counters_.tensor_flops[t]);
  }
  sink.add_counter(name_, "wgmma.operations", static_cast<double>(wgmma_.operations()));
  sink.add_counter(name_, "wgmma.busy_cycles", static_cast<double>(wgmma_.busy_cycles()));
  sink.add_counter(name_, "wgmma.shared_bytes", static_cast<double>(wgmma_.shared_bytes()));
}

}  // namespace sassim::sim
