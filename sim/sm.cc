#include "sim/sm.h"

#include <algorithm>
#include <bit>

#include <fmt/format.h>

#include "ground/error.h"
#include "isa/flops.h"
#include "sim/bulk_groups.h"
#include "sim/control_bits.h"
#include "sim/register_file.h"
#include "sim/sm_cta_slot.h"
#include "sim/sub_core.h"

namespace sassim::sim {

Sm::Sm(std::uint32_t id, const config::GpuConfig& config, memsys::SmMemoryPort& port, Clock core)
    : id_(id),
      name_(fmt::format("gpu.sm[{}]", id)),
      clock_(core),
      port_(port),
      max_warps_(config.sm().max_warps()),
      max_threads_(config.sm().max_threads()),
      max_ctas_(config.sm().max_ctas()),
      registers_(config.sm().registers()),
      shared_bytes_(config.l1().shared_memory_bytes()),
      cta_launch_latency_(config.sm().cta_launch_latency_cycles()),
      barrier_latency_(config.sm().barrier_latency_cycles()),
      cluster_barrier_latency_(config.cluster().barrier_latency_cycles()),
      load_to_memory_operand_(config.sm().load_to_memory_operand_cycles()),
      frontend_(config, config.sm().max_warps()),
      control_costs_(config.sm()),
      wgmma_(config.sm().max_ctas(), kWarpgroupsPerCta),
      wgmma_warps_(config.sm().max_warps()),
      lsu_(config, core),
      async_(config, core),
      endpoint_(id, config.cluster().dsmem_bytes_per_cycle(), *this, *this) {
  const std::uint32_t sub_cores = config.sm().sub_cores();
  if ((max_warps_ + sub_cores - 1) / sub_cores > 64) {
    throw Error(
        fmt::format("sm.max_warps = {} with sm.sub_cores = {}: at most 64 warps per sub-core",
                    max_warps_, sub_cores));
  }
  wgmma_.set_shared_data_path(&port_, config.l1().data_bytes_per_cycle());
  warps_.resize(max_warps_);
  ctas_.resize(max_ctas_);
  sub_cores_.resize(sub_cores);
  for (std::size_t s = 0; s < sub_cores; ++s) {
    sub_cores_[s].index = s;
    sub_cores_[s].policy = make_scheduler_policy(config.sm().scheduler());
  }
  for (unsigned w = 0; w < max_warps_; ++w) {
    SubCore& sub = sub_cores_[w % sub_cores];
    sub.slots.push_back(w);
    sub.ages.push_back(0);
    sub.state_until.push_back(kNeverCycle);
  }
}

Sm::~Sm() = default;

const KernelContext& Sm::kernel_of(const Warp& w) const {
  return *ctas_[w.cta_slot].kernel;
}

void Sm::set_next(Warp& w, std::uint32_t next) {
  w.next = next;
  if (next != 0) w.window.forget_before(next - 1);
  if (next < w.window.size()) w.window.inst(next);
  w.next_inst = read_next(w);
}

NextInst Sm::read_next(const Warp& w) const {
  if (w.next >= w.window.size()) return {};
  const isa::WarpInst& wi = w.window.decoded(w.next);
  const isa::StaticInst& si = (*kernel_of(w).statics)[wi.static_index];
  return {&si, wi.static_index, si.op.unit, si.op.mem != isa::MemKind::kNone && wi.addr_count > 0};
}

bool Sm::can_accept(const CtaResources& cta, std::uint32_t count) const {
  return resident_ctas_ + count <= max_ctas_ && used_warps_ + count * cta.warps <= max_warps_ &&
         used_threads_ + count * cta.threads <= max_threads_ &&
         used_registers_ + count * cta.registers <= registers_ &&
         used_shared_ + count * cta.shared_bytes <=
             (resident_ctas_ == 0 && cta.shared_carveout_bytes != CtaResources::kKeepCarveout
                  ? cta.shared_carveout_bytes
                  : shared_bytes_);
}

void Sm::accept(traces::CtaTrace cta, const KernelContext& kernel, std::uint64_t cycle,
                ClusterMembership cluster) {
  mark_changed();
  auto slot_it = std::find_if(ctas_.begin(), ctas_.end(), [](const CtaSlot& c) { return !c.used; });
  auto cta_slot = static_cast<std::uint32_t>(slot_it - ctas_.begin());
  CtaSlot& c = *slot_it;
  c.used = true;
  c.kernel = &kernel;
  c.trace = std::move(cta);
  c.resources = kernel.cta;
  c.warp_slots.clear();
  c.barriers.reset();
  c.finished_warps = 0;
  c.active_warps = kernel.cta.warps;
  c.cluster = std::move(cluster);
  c.cluster_phases = 0;
  c.cluster_resume = 0;
  // The CTA scheduler calls this outside every tile: the cluster's members change only
  // then and when the network takes a CTA's leave.
  if (c.cluster.barrier)
    c.cluster.barrier->join(endpoint_, cta_slot, c.active_warps, c.cluster.rank);
  wgmma_.reset_cta(cta_slot);
  if (resident_ctas_ == 0) {
    busy_since_ = cycle;
    if (kernel.launch_seq != last_launch_seq_) {
      last_launch_seq_ = kernel.launch_seq;
      port_.invalidate_l1_data();
    }
    if (kernel.cta.shared_carveout_bytes != CtaResources::kKeepCarveout &&
        kernel.cta.shared_carveout_bytes != shared_bytes_) {
      shared_bytes_ = kernel.cta.shared_carveout_bytes;
      port_.set_shared_carveout(shared_bytes_);
    }
  }
  ++resident_ctas_;
  ++counters_.ctas;
  used_warps_ += kernel.cta.warps;
  used_threads_ += kernel.cta.threads;
  used_registers_ += kernel.cta.registers;
  used_shared_ += kernel.cta.shared_bytes;

  const std::uint64_t start = cycle + std::max<std::uint32_t>(cta_launch_latency_, 1);
  const std::uint64_t code = code_base(kernel.info->name);
  unsigned next_free = 0;
  for (std::uint32_t i = 0; i < kernel.cta.warps; ++i) {
    while (warps_[next_free].state != WarpState::kFree) ++next_free;
    c.warp_slots.push_back(next_free++);
  }
  for (std::uint32_t i = 0; i < kernel.cta.warps; ++i) {
    unsigned slot = c.warp_slots[i];
    Warp& w = warps_[slot];
    w = Warp{};
    w.state = WarpState::kRunning;
    w.cta_slot = cta_slot;
    w.age = next_age_++;
    if (i < c.trace.warps.size()) w.window = traces::WarpWindow(std::move(c.trace.warps[i]));
    set_next(w, 0);
    w.cycle_state = WarpCycleState::kWait;
    w.state_since = cycle;
    w.since_seq = account_seq_;
    wgmma_warps_[slot] = WarpgroupMmaWarp{};
    SubCore& sub = sub_cores_[slot % sub_cores_.size()];
    sub.ages[slot / sub_cores_.size()] = w.age;
    frontend_.start_warp(slot, &w.window, kernel.statics, code, start);
    advance(slot, start);
  }
  next_cycle_ = std::min(next_cycle_, start);
}

void Sm::advance(unsigned slot, std::uint64_t earliest) {
  Warp& w = warps_[slot];
  reclassify(slot);
  w.min_issue_cycle = earliest;
  if (!w.has_next()) {
    if (w.state == WarpState::kRunning || w.state == WarpState::kWaitMemory) {
      CtaSlot& c = ctas_[w.cta_slot];
      --c.active_warps;
      w.state = WarpState::kDraining;
      release_barriers(c, c.barriers.complete_after_exit(c.active_warps), earliest);
      if (c.cluster.barrier) {
        const bool arrived = w.cluster_arrived && !cluster_phase_completed(w);
        cluster_event(c, net::WarpExit{c.cluster.barrier, earliest, arrived});
      }
    }
    if (w.outstanding == 0) finish_warp(slot, earliest);
    return;
  }
  const isa::StaticInst& si = *w.next_inst.si;
  const std::uint64_t fetched = std::max(earliest, frontend_.ready(slot));
  if (const ControlBitsTable* control = kernel_of(w).control) {
    const ControlReady r = control_ready(w.scoreboards, (*control)[w.next_inst.static_index],
                                         fetched, w.next_inst.memory);
    w.ready_cycle = r.cycle;
    w.control_wait = r.state;
    return;
  }
  if (si.op.matrix.warpgroup) {
    w.ready_cycle = warpgroup_mma_ready(w, si, fetched);
    return;
  }
  std::uint64_t ready = fetched;
  const std::uint32_t loaded_delay = w.next_inst.memory ? load_to_memory_operand_ : 0;
  for (std::uint8_t s = 0; s < si.num_src; ++s) {
    const std::uint64_t r = w.reg_ready[si.src[s]];
    ready = std::max(ready, r != kNeverCycle && w.reg_loaded[si.src[s]] ? r + loaded_delay : r);
  }
  for (std::uint8_t d = 0; d < si.num_dst; ++d) {
    const isa::RegRange& r = si.dst[d];
    for (unsigned k = 0; k < r.count && r.first + k < w.reg_ready.size(); ++k) {
      ready = std::max(ready, w.reg_ready[r.first + k]);  // write after write
    }
  }
  w.ready_cycle = ready;
}

bool Sm::can_issue(unsigned slot, const SubCore& sub, std::uint64_t cycle) const {
  const Warp& w = warps_[slot];
  if (w.state != WarpState::kRunning || w.ready_cycle > cycle) return false;
  if (sub.unit_free[static_cast<std::size_t>(w.next_inst.unit)] > cycle) return false;
  return !w.next_inst.memory || !lsu_.path_full(sub.index, *w.next_inst.si);
}

bool Sm::issue(SubCore& sub, std::uint64_t cycle, Picos now) {
  if (sub.dispatch_free > cycle) return false;
  std::uint64_t ready = 0;
  for (std::uint64_t c = issue_candidates(sub); c != 0; c &= c - 1) {
    const auto i = static_cast<unsigned>(std::countr_zero(c));
    if (can_issue(sub.slots[i], sub, cycle)) ready |= std::uint64_t{1} << i;
  }
  if (accounting_ == WarpStateAccounting::kChecked) check_issue_candidates(sub, cycle, ready);
  if (ready == 0) return false;
  if (sub.yield_cycle == cycle && (ready & ~sub.yield_mask) != 0) ready &= ~sub.yield_mask;
  unsigned local = sub.policy->pick(ready, sub.ages);
  sub.policy->issued(local);
  ++counters_.issue_cycles;
  execute(sub.slots[local], cycle, now);
  return true;
}

void Sm::execute(unsigned slot, std::uint64_t cycle, Picos now) {
  Warp& w = warps_[slot];
  // A copy: decoding further (set_next, the front end) may move the window's entries.
  const isa::WarpInst wi = w.window.inst(w.next);
  const isa::StaticInst& si = (*kernel_of(w).statics)[wi.static_index];
  const ExecTiming& timing = *kernel_of(w).timing;
  const auto unit = static_cast<std::size_t>(si.op.unit);
  SubCore& sub = sub_cores_[slot % sub_cores_.size()];
  const ControlBitsTable* control = kernel_of(w).control;
  // Register-bank conflicts delay the dispatch; results and the next issue count from it.
  const std::uint64_t dispatch = cycle + operand_read_delay(w, wi, si);
  if (dispatch != cycle) {
    sub.dispatch_free = dispatch + 1;
    sub.dispatch_slot = slot;
  }
  // A wgmma leaves the sub-core at once; the SM's tensor units time it (sm_warpgroup.cc).
  const bool wgmma = si.op.matrix.warpgroup;
  const std::uint32_t interval = wgmma ? 1 : timing.interval(si.op);
  // Operand reads overlap the pipe's initiation interval. An LSU queue takes one
  // instruction per cycle and paces them into the pipe itself.
  const bool async = si.op.async != isa::AsyncOp::kNone;
  const bool memory = !async && w.next_inst.memory;
  const bool queued = memory && lsu_.queued(si);
  sub.unit_free[unit] = queued ? std::max(sub.unit_free[unit], dispatch + 1)
                               : std::max(cycle + interval, dispatch + 1);
  note_issue(sub, slot);
  if (si.op.unit == isa::UnitClass::kTensor && !wgmma) counters_.tensor_busy_cycles += interval;
  ++counters_.warp_insts;
  if (KernelContext::Progress* progress = kernel_of(w).progress) {
    progress->warp_insts.fetch_add(1, std::memory_order_relaxed);
  }
  ++counters_.insts_by_unit[unit];
  if (si.op.flops_per_thread != 0) {
    const double flops =
        static_cast<double>(std::popcount(wi.active_mask)) * si.op.flops_per_thread;
    counters_.flops[si.op.flop_kind] += flops;
    if (si.op.matrix.is_matrix())
      counters_.tensor_flops[static_cast<std::size_t>(si.op.matrix.type)] += flops;
  }
  account(w, cycle, WarpCycleState::kSelected);
  set_next(w, w.next + 1);
  if (observer_ != nullptr) observer_->issued(id_, slot, cycle, si);
  // Control flow: a successor not at the next PC is a taken branch (fetch redirects);
  // reconvergence instructions delay the warp's next issue.
  std::uint64_t redirect = 0, next_issue = dispatch + 1;
  if (si.op.control != isa::ControlKind::kNone) {
    const isa::Arch arch = kernel_of(w).info->arch;
    if (w.has_next() && w.next_inst.si->pc != next_sequential_pc(arch, si.pc)) {
      redirect = dispatch + std::max<std::uint32_t>(control_costs_.branch_resolve_cycles(), 1);
    }
    next_issue = dispatch + control_costs_.issue_delay(si.op);
  }
  frontend_.issued(slot, cycle, redirect);

  const bool waits = async && issue_async(slot, si, wi, cycle, now);
  if (memory) {
    issue_memory(slot, si, wi, timing.latency(si.op), dispatch - cycle, interval, now);
  } else if (wgmma) {
    issue_warpgroup_mma(slot, si, wi, dispatch, now);
  } else {
    const std::uint64_t done = dispatch + timing.latency(si.op);
    for (std::uint8_t d = 0; d < si.num_dst; ++d) {
      const isa::RegRange& r = si.dst[d];
      for (unsigned k = 0; k < r.count && r.first + k < w.reg_ready.size(); ++k) {
        w.reg_ready[r.first + k] = done;
        w.reg_loaded[r.first + k] = false;
      }
    }
  }

  if (control != nullptr) {
    const ControlEntry& e = (*control)[wi.static_index];
    next_issue = std::max(next_issue, control_issue(w.scoreboards, e,
                                                    {dispatch, timing.latency(si.op),
                                                     memory ? timing.latency(si.op) : 1, memory,
                                                     si.op.space == isa::MemSpace::kShared,
                                                     si.op.mem == isa::MemKind::kAsyncCopy}));
    if (e.yield) {
      sub.yield_mask = std::uint64_t{1} << (slot / sub_cores_.size());
      sub.yield_cycle = dispatch + 1;
    }
  }
  if (waits) return;  // on an mbarrier phase
  const bool active = wi.active_mask != 0;
  if (active && si.op.control == isa::ControlKind::kBarrierSync) {
    w.min_issue_cycle = cycle + 1;
    arrive_at_barrier(slot, si.op, true, cycle);
    return;
  }
  if (active && si.op.control == isa::ControlKind::kBarrierArrive) {
    arrive_at_barrier(slot, si.op, false, cycle);
  }
  if (active && si.op.control == isa::ControlKind::kClusterArrive) {
    arrive_at_cluster_barrier(slot, cycle);
  }
  if (active && si.op.control == isa::ControlKind::kClusterWait &&
      wait_at_cluster_barrier(slot, cycle, next_issue)) {
    return;
  }
  if (active && si.op.control == isa::ControlKind::kMemoryBarrier) {
    start_memory_barrier(w, timing.invalidates_l1(si.op), si.op.fence_beyond_cta);
    if (!memory_wait_done(w)) {
      w.state = WarpState::kWaitMemory;
      w.min_issue_cycle = cycle + 1;
      return;
    }
  }
  if (si.op.control == isa::ControlKind::kWarpgroupWait) {
    wait_for_warpgroup_mma(slot, wi, cycle);
    return;
  }
  if (timing.commits_async_group(si.op)) commit_async_group(w);
  if (active && timing.waits_for_async_copies(si.op)) {
    // N of DEPBAR.LE SB0, N for a CCTL.IVALL after it: from the listing, else the trace.
    if (control == nullptr) {
      w.bulk_wait_groups = depbar_allowed_groups(si.immediate);
    } else if ((*control)[wi.static_index].depbar_sb == 0) {
      w.bulk_wait_groups = (*control)[wi.static_index].depbar_max;
    }
  }
  if (control == nullptr && timing.waits_for_async_copies(si.op) &&
      !depbar_groups_within(w, depbar_allowed_groups(si.immediate))) {
    w.async_wait_groups = depbar_allowed_groups(si.immediate);
    w.state = WarpState::kWaitMemory;
    w.wait_async_only = true;
    w.min_issue_cycle = cycle + 1;
    return;
  }
  advance(slot, next_issue);
}

void Sm::finish_warp(unsigned slot, std::uint64_t cycle) {
  Warp& w = warps_[slot];
  account(w, cycle, WarpCycleState::kDrain);
  w.state = WarpState::kFree;
  w.window = traces::WarpWindow{};
  set_next(w, 0);
  CtaSlot& c = ctas_[w.cta_slot];
  if (++c.finished_warps == c.resources.warps) retire_cta(w.cta_slot, cycle);
}

void Sm::retire_cta(std::uint32_t cta_slot, std::uint64_t cycle) {
  CtaSlot& c = ctas_[cta_slot];
  c.used = false;
  c.trace = traces::CtaTrace{};
  async_.mbarriers().release_cta(cta_slot);
  if (c.cluster.barrier) {
    cluster_event(c, net::CtaLeave{c.cluster.barrier, &endpoint_, cta_slot});
    c.cluster = ClusterMembership{};
    endpoint_.drop_cta(cta_slot);
  }
  used_warps_ -= c.resources.warps;
  used_threads_ -= c.resources.threads;
  used_registers_ -= c.resources.registers;
  used_shared_ -= c.resources.shared_bytes;
  if (--resident_ctas_ == 0) counters_.busy_cycles += cycle - busy_since_;
  const KernelContext& kernel = *c.kernel;
  c.kernel = nullptr;
  if (listener_ != nullptr) listener_->cta_retired(id_, kernel);
}

std::uint64_t Sm::next_issue_cycle(std::uint64_t after, bool every_warp) const {
  std::uint64_t best = kNeverCycle;
  for (std::size_t s = 0; s < sub_cores_.size(); ++s) {
    const SubCore& sub = sub_cores_[s];
    // The end of a delayed dispatch changes warp states (sm_warp_states.cc).
    if (sub.dispatch_free > after) best = std::min(best, sub.dispatch_free);
    for (std::uint64_t m = every_warp ? all_slots(sub) : timed_warps(sub); m != 0; m &= m - 1) {
      const Warp& w = warps_[sub.slots[static_cast<unsigned>(std::countr_zero(m))]];
      if (w.state != WarpState::kRunning || w.ready_cycle == kNeverCycle) continue;
      std::uint64_t t = std::max({w.ready_cycle,
                                  sub.unit_free[static_cast<std::size_t>(
                                      every_warp ? read_next(w).unit : w.next_inst.unit)],
                                  sub.dispatch_free});
      best = std::min(best, std::max(t, after));
    }
  }
  return best;
}

bool Sm::tick(std::uint64_t cycle, Picos now) {
  bool progress = complete_memory(cycle, now);
  if (!endpoint_.releases().empty()) progress |= deliver_cluster_releases(cycle);
  if (endpoint_.has_remote_shared()) progress |= endpoint_.deliver_remote_shared(cycle, now, port_);
  if (lsu_.next_submit_ps() <= now) progress |= lsu_.submit(now, port_, *this);
  if (async_.next_submit_ps() <= now) progress |= submit_tma_copies(cycle, now);
  if (resident_ctas_ != 0) {
    // Each warp's state in this cycle is decided before issue (the issuing warp then
    // becomes selected); the state it holds from the next cycle on, after.
    account_all(cycle, cycle);
    for (SubCore& sub : sub_cores_) progress |= issue(sub, cycle, now);
    if (lsu_.has_queues()) progress |= lsu_.drain_queues(cycle, now);
    account_all(cycle + 1, cycle + 1);
  }
  next_cycle_ = resident_ctas_ != 0 ? next_issue_cycle(cycle + 1) : kNeverCycle;
  if (accounting_ == WarpStateAccounting::kChecked && resident_ctas_ != 0 &&
      next_issue_cycle(cycle + 1, true) != next_cycle_) {
    throw Error(
        fmt::format("{}: next issue cycle {} from the warps not blocked at cycle {}, {} "
                    "from all",
                    name_, next_cycle_, cycle, next_issue_cycle(cycle + 1, true)));
  }
  return progress;
}

Picos Sm::next_event_ps() const {
  Picos t = next_cycle_ == kNeverCycle ? kNever : clock_.edge(next_cycle_);
  t = std::min(t, lsu_.next_submit_ps());
  t = std::min(t, lsu_.next_drain_ps());
  t = std::min(t, async_.next_submit_ps());
  if (const std::uint64_t due = endpoint_.next_cycle(); due != kNeverCycle) {
    t = std::min(t, clock_.edge(due));
  }
  return std::min(t, port_.next_completion_ps());
}

}  // namespace sassim::sim
