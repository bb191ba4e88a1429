// The SM's memory instructions: their accesses into the LSU (sim/lsu.h) and the
// completions that make load destinations ready.
#include <algorithm>
#include <span>

#include "sim/bulk_groups.h"
#include "sim/cluster_window.h"
#include "sim/control_bits.h"
#include "sim/local_memory.h"
#include "sim/sm.h"
#include "sim/sm_cta_slot.h"
#include "sim/sm_pending_access.h"
#include "sim/sub_core.h"

namespace sassim::sim {

void Sm::issue_memory(unsigned slot, const isa::StaticInst& si, const isa::WarpInst& wi,
                      std::uint64_t latency_cycles, std::uint64_t dispatch_delay,
                      std::uint64_t interval, Picos now) {
  Warp& w = warps_[slot];
  const CtaSlot& c = ctas_[w.cta_slot];
  // Copied: the access waits in the address stage while the window moves on.
  const std::uint32_t token = lsu_.acquire_token();
  PendingAccess& p = lsu_.pending(token);
  const std::span<const std::uint64_t> window_addrs = w.window.addresses(wi);
  p.addresses.assign(window_addrs.begin(), window_addrs.end());
  const std::span<const std::uint64_t> addrs = p.addresses;
  isa::MemSpace space = si.op.space;
  bool dsmem = false;
  std::uint32_t dsmem_rank = 0;
  if (space == isa::MemSpace::kGeneric || space == isa::MemSpace::kShared) {
    if (const auto rank = cluster_shared_rank(*c.kernel, addrs[0])) {
      space = isa::MemSpace::kShared;
      dsmem = *rank != c.cluster.rank;
      dsmem_rank = *rank;
    }
  }
  if (space == isa::MemSpace::kGeneric) {
    const KernelContext& kernel = kernel_of(w);
    const traces::KernelInfo& info = *kernel.info;
    const std::uint64_t a = addrs[0];
    if (a >= info.shmem_base && a - info.shmem_base < kernel.shared_window_size) {
      space = isa::MemSpace::kShared;
    } else if (a >= info.local_base && a - info.local_base < kernel.local_window_size) {
      space = isa::MemSpace::kLocal;
    } else {
      space = isa::MemSpace::kGlobal;
    }
  }
  // The wider of what the trace recorded and what the opcode moves: traces record 2
  // bytes for LDSM, whose threads each address a 16-byte matrix row.
  std::uint8_t bytes_per_thread = std::max(si.mem_width_bytes, si.op.access_bytes);
  if (bytes_per_thread == 0) bytes_per_thread = 4;
  if (space == isa::MemSpace::kLocal) {
    spread_local(kernel_of(w), slot, wi.active_mask, bytes_per_thread, p.addresses);
  }
  p.slot = slot;
  p.tma = false;
  p.dsmem = dsmem;
  p.dsmem_rank = dsmem_rank;
  p.bulk = false;
  p.bulk_ack = false;
  p.write_ack = false;
  p.async = si.op.mem == isa::MemKind::kAsyncCopy;
  const bool returns_data = si.op.mem == isa::MemKind::kLoad || si.op.mem == isa::MemKind::kAtomic;
  p.num_dst = returns_data ? si.num_dst : 0;
  p.dst = si.dst;
  const ControlBitsTable* control = kernel_of(w).control;
  p.write_sb = control != nullptr ? (*control)[wi.static_index].write_sb : kNoScoreboard;
  for (std::uint8_t d = 0; d < p.num_dst; ++d) {
    for (unsigned k = 0; k < p.dst[d].count && p.dst[d].first + k < w.reg_ready.size(); ++k) {
      w.reg_ready[p.dst[d].first + k] = kNeverCycle;
      w.reg_pending_shared[p.dst[d].first + k] = space == isa::MemSpace::kShared;
      w.reg_loaded[p.dst[d].first + k] = true;
    }
  }
  ++w.outstanding;
  if (p.async) {
    ++w.outstanding_async;
    p.async_group = join_async_group(w);
  }

  memsys::WarpMemAccess access;
  access.token = token;
  const bool writes = si.op.mem == isa::MemKind::kStore || si.op.mem == isa::MemKind::kReduction;
  if (writes && space != isa::MemSpace::kShared && !dsmem && port_.acknowledges_writes()) {
    // The L2 acknowledges the writes; a MEMBAR beyond the CTA waits for that.
    access.ack_token = acquire_ack_token(slot, false, 0);
  }
  access.space = space;
  access.kind = si.op.mem;
  access.bytes_per_thread = bytes_per_thread;
  access.active_mask = wi.active_mask;
  access.l1_bypass = si.op.l1_bypass;
  access.l1_policy = si.op.l1_policy;
  access.addresses = addrs;  // p may have moved: acquire_ack_token can grow the table
  lsu_.enter(slot % sub_cores_.size(), si, access, now,
             now + clock_.edge(latency_cycles + dispatch_delay), latency_cycles, interval);
}

void Sm::spread_local(const KernelContext& kernel, unsigned slot, std::uint32_t active_mask,
                      std::uint32_t bytes_per_thread, std::vector<std::uint64_t>& addresses) const {
  const std::uint64_t window = kernel.info->local_base;
  const std::uint64_t window_size = kernel.local_window_size;
  const std::uint32_t unit = std::clamp<std::uint32_t>(bytes_per_thread, 4, 16);
  std::size_t i = 0;
  for (unsigned lane = 0; lane < 32 && i < addresses.size(); ++lane) {
    if ((active_mask >> lane & 1U) == 0) continue;
    std::uint64_t& a = addresses[i++];
    // NVBit traces may give the generic address in the local window, capture the offset.
    const std::uint64_t offset = a >= window && a - window < window_size ? a - window : a;
    a = local_address(offset, std::uint64_t{id_} * max_threads_ + slot * 32 + lane, unit);
  }
}

bool Sm::complete_memory(std::uint64_t cycle, Picos now) {
  bool progress = false;
  while (auto token = port_.pop_completed(now)) {
    progress = true;
    complete_access(*token, cycle);
  }
  if (!endpoint_.replies().empty()) progress |= complete_dsmem(cycle);
  return progress;
}

void Sm::complete_access(std::uint32_t token, std::uint64_t cycle) {
  PendingAccess& p = lsu_.pending(token);
  if (p.bulk_ack || p.write_ack) {
    complete_acknowledgement(token, cycle);
    return;
  }
  Warp& w = warps_[p.slot];
  if (p.tma) complete_tma(p, cycle);
  for (std::uint8_t d = 0; d < p.num_dst; ++d) {
    for (unsigned k = 0; k < p.dst[d].count && p.dst[d].first + k < w.reg_ready.size(); ++k) {
      w.reg_ready[p.dst[d].first + k] = cycle;
    }
  }
  --w.outstanding;
  if (p.async) {
    --w.outstanding_async;
    finish_async_copy(w, p.async_group);
  }
  if (kernel_of(w).control != nullptr) {
    // Memory instructions read a loaded register load_to_memory_operand_ cycles later.
    const std::uint64_t memory_operand_ready =
        p.num_dst != 0 && !p.async && load_to_memory_operand_ != 0 ? cycle + load_to_memory_operand_
                                                                   : 0;
    control_complete(w.scoreboards, p.write_sb, p.async, memory_operand_ready);
  }
  lsu_.release_token(token);
  const unsigned slot = p.slot;
  switch (w.state) {
    case WarpState::kRunning:
      advance(slot, std::max(w.min_issue_cycle, cycle));
      break;
    case WarpState::kWaitMemory:
      if (memory_wait_done(w)) {
        w.state = WarpState::kRunning;
        advance(slot, std::max(w.min_issue_cycle, cycle));
      }
      break;
    case WarpState::kDraining:
      if (w.outstanding == 0) finish_warp(slot, cycle);
      break;
    default:
      break;
  }
}

std::uint32_t Sm::acquire_ack_token(unsigned slot, bool bulk, std::uint64_t bulk_group) {
  const std::uint32_t token = lsu_.acquire_token();
  PendingAccess& a = lsu_.pending(token);
  a = PendingAccess{};
  a.slot = slot;
  a.bulk_ack = bulk;
  a.write_ack = !bulk;
  a.bulk_group = bulk_group;
  Warp& w = warps_[slot];
  a.warp_age = w.age;
  ++(bulk ? w.bulk_unacked : w.writes_unacked);
  return token;
}

void Sm::complete_acknowledgement(std::uint32_t token, std::uint64_t cycle) {
  const PendingAccess& p = lsu_.pending(token);
  lsu_.release_token(token);
  Warp& w = warps_[p.slot];
  if (w.state == WarpState::kFree || w.age != p.warp_age) return;  // the warp exited
  if (p.bulk_ack) {
    --w.bulk_unacked;
    bulk_writes_acknowledged(w, p.bulk_group);
  } else {
    --w.writes_unacked;
  }
  if (w.state == WarpState::kWaitMemory && memory_wait_done(w)) {
    w.state = WarpState::kRunning;
    advance(p.slot, std::max(w.min_issue_cycle, cycle));
  }
}

}  // namespace sassim::sim
