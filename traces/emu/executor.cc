#include "traces/emu/executor.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>

#include "ground/error.h"
#include "traces/emu/exec.h"

namespace sassim::emu {

void ExecContext::fail(const Inst& inst, const std::string& what) const {
  const auto index = static_cast<size_t>(&inst - program.insts.data());
  const std::string mnemonic = index < program.mnemonic.size() ? program.mnemonic[index] : "?";
  throw Error(fmt::format("{}:{}: PC 0x{:04x}: {}: {}", program.origin, inst.line, inst.pc,
                          mnemonic, what));
}

uint64_t GlobalMemory::allocate(std::string name, uint64_t size_bytes) {
  if (allocations_.size() == 1 && allocations_[0].bytes.empty() && allocations_[0].base == 0) {
    allocations_.clear();
  }
  Allocation a{std::move(name), next_, std::vector<uint8_t>(size_bytes)};
  next_ += (std::max<uint64_t>(size_bytes, 1) + 255) / 256 * 256;
  allocations_.push_back(std::move(a));
  return allocations_.back().base;
}

uint8_t* GlobalMemory::find_slow(uint64_t address, uint32_t size) {
  for (size_t i = 0; i < allocations_.size(); ++i) {
    Allocation& a = allocations_[i];
    if (address >= a.base && address + size <= a.base + a.bytes.size()) {
      last_ = i;
      return a.bytes.data() + (address - a.base);
    }
  }
  return nullptr;
}

Executor::Executor(const Program& program, const ConstBank& bank, GlobalMemory& global,
                   const LaunchShape& shape)
    : program_(program), bank_(bank), global_(global), shape_(shape) {
  if (program.insts.empty())
    throw Error(fmt::format("{}: {} has no instructions", program.origin, program.name));
  const Dim3 c = shape.cluster;
  const uint64_t size = uint64_t{c.x} * c.y * c.z;
  if (size == 0 || size > 16 || shape.grid.x % c.x != 0 || shape.grid.y % c.y != 0 ||
      shape.grid.z % c.z != 0) {
    throw Error(fmt::format(
        "{}: {}: a cluster of {} x {} x {} CTAs for a grid of {} x {} x {}: "
        "expected 1 to 16 CTAs that tile the grid",
        program.origin, program.name, c.x, c.y, c.z, shape.grid.x, shape.grid.y, shape.grid.z));
  }
  ctas_.resize(static_cast<size_t>(size));
  for (size_t r = 0; r < ctas_.size(); ++r) {
    ctas_[r].shared.assign(shape.shared_bytes, 0);
    ctas_[r].rank = static_cast<uint32_t>(r);
  }
}

void Executor::reset_warps(Cta& cta) {
  const uint64_t threads = uint64_t{shape_.block.x} * shape_.block.y * shape_.block.z;
  const auto count = static_cast<size_t>((threads + 31) / 32);
  cta.warps.resize(count);
  const size_t live_rows =
      program_.registers == 0 ? kRowZero : std::min<size_t>(program_.registers + 2, kRowZero);
  for (size_t i = 0; i < count; ++i) {
    Warp& w = cta.warps[i];
    std::fill(w.r.begin(), w.r.begin() + static_cast<std::ptrdiff_t>(live_rows * 32), 0U);
    w.ur.fill(0);
    w.p.fill(0);
    w.p[kPredTrue] = ~0U;
    w.up.fill(0);
    w.up[kPredTrue] = 1;
    w.bssy.fill(0);
    w.cur = 0;
    const uint64_t left = threads - i * 32;
    w.alive = left >= 32 ? ~0U : (1U << left) - 1;
    w.waiting = 0;
    w.diverged = false;
    w.at_barrier = false;
    w.at_mbarrier = false;
    w.cluster_arrived = false;
    w.at_cluster_wait = false;
    w.done = false;
    w.index = static_cast<uint32_t>(i);
    w.trace.clear();
    w.addrs.clear();
  }
}

void Executor::run_cluster(Dim3 first) {
  const Dim3 c = shape_.cluster;
  std::vector<ExecContext> contexts;
  contexts.reserve(ctas_.size());
  for (Cta& cta : ctas_) {
    cta.id = {first.x + cta.rank % c.x, first.y + cta.rank / c.x % c.y,
              first.z + cta.rank / (c.x * c.y)};
    reset_warps(cta);
    cta.mbarriers.clear();
    contexts.push_back(ExecContext{global_, cta, bank_, program_, shape_.block, shape_.grid,
                                   shape_.local_bytes, 0});
    if (ctas_.size() > 1) contexts.back().cluster = ctas_;
  }
  cta_insts_ = 0;
  for (;;) {
    const uint64_t before = warp_insts_;
    bool live = false;
    for (size_t r = 0; r < ctas_.size(); ++r) {
      for (Warp& w : ctas_[r].warps) {
        if (w.done) continue;
        live = true;
        if (!w.at_barrier && !w.at_cluster_wait) {
          w.at_mbarrier = false;  // tries its wait again
          run_warp(w, contexts[r]);
        }
      }
    }
    if (!live) break;
    release_barriers();
    if (warp_insts_ == before) no_progress();
  }
}

void Executor::release_barriers() {
  size_t live = 0, arrived = 0;
  for (Cta& cta : ctas_) {
    size_t cta_live = 0, at_barrier = 0;
    for (const Warp& w : cta.warps) {
      if (w.done) continue;
      ++cta_live;
      if (w.at_barrier) ++at_barrier;
      if (w.cluster_arrived) ++arrived;
    }
    live += cta_live;
    if (cta_live != 0 && at_barrier == cta_live) {
      for (Warp& w : cta.warps) w.at_barrier = false;
    }
  }
  if (live == 0 || arrived != live) return;
  for (Cta& cta : ctas_) {
    for (Warp& w : cta.warps) {
      w.cluster_arrived = false;
      w.at_cluster_wait = false;
    }
  }
}

void Executor::no_progress() const {
  std::string waits;
  for (const Cta& cta : ctas_) {
    for (const Warp& w : cta.warps) {
      if (w.done || (!w.at_mbarrier && !w.at_cluster_wait)) continue;
      const uint32_t at =
          w.diverged ? w.pc[static_cast<unsigned>(std::countr_zero(w.alive))] : w.cur;
      waits += fmt::format("{}{}warp {} at PC 0x{:04x} ({})", waits.empty() ? "" : ", ",
                           ctas_.size() > 1 ? fmt::format("rank {} ", cta.rank) : "", w.index,
                           program_.insts[at > 0 && w.at_cluster_wait ? at - 1 : at].pc,
                           w.at_mbarrier ? "an mbarrier phase" : "the cluster barrier");
    }
  }
  const Cta& first = ctas_.front();
  throw Error(fmt::format(
      "{}: {} ({},{},{}) of {} made no progress{}", program_.origin,
      ctas_.size() > 1 ? "the cluster of CTA" : "CTA", first.id.x, first.id.y, first.id.z,
      program_.name,
      waits.empty() ? std::string() : ": waiting on phases no warp can complete (" + waits + ")"));
}

void Executor::run_warp(Warp& w, ExecContext& ctx) {
  const auto size = static_cast<uint32_t>(program_.insts.size());
  while (!w.done && !w.at_barrier && !w.at_mbarrier && !w.at_cluster_wait) {
    uint32_t index, group;
    if (!w.diverged) {
      index = w.cur;
      group = w.alive;
    } else {
      select(w, index, group);
    }
    if (index >= size) {
      const Inst& last = program_.insts.back();
      ctx.fail(last, "execution runs past the last instruction");
    }
    const Inst& inst = program_.insts[index];
    uint32_t exec = group;
    if (inst.guard.reg != kPredTrue || inst.guard.negate) exec = pred_mask(w, inst.guard, group);
    if (inst.unit == Unit::kAsync && waits_on_mbarrier(inst, w, exec, ctx)) {
      w.at_mbarrier = true;  // runs it when the phase has completed
      return;
    }
    const auto addr_begin = static_cast<uint32_t>(w.addrs.size());
    w.trace.push_back({index, exec, addr_begin, 0});
    ctx.clock = warp_insts_;
    ++warp_insts_;
    ++cta_insts_;
    if (shape_.max_warp_insts != 0 && cta_insts_ > shape_.max_warp_insts * ctas_.size()) {
      ctx.fail(inst, fmt::format("CTA ({},{},{}) executed more than {} warp instructions "
                                 "(an endless loop?)",
                                 ctx.cta.id.x, ctx.cta.id.y, ctx.cta.id.z,
                                 shape_.max_warp_insts * ctas_.size()));
    }
    switch (inst.unit) {
      case Unit::kInt:
        exec_int(inst, w, exec, ctx);
        break;
      case Unit::kFp:
        exec_fp(inst, w, exec, ctx);
        break;
      case Unit::kFp64:
        exec_fp64(inst, w, exec, ctx);
        break;
      case Unit::kMem:
        exec_mem(inst, w, exec, ctx);
        w.trace.back().addr_count = static_cast<uint32_t>(w.addrs.size()) - addr_begin;
        break;
      case Unit::kTensor:
        if (inst.op == Op::kHgmma) {
          exec_wgmma(inst, w, exec, ctx);
        } else {
          exec_tensor(inst, w, exec, ctx);
        }
        w.trace.back().addr_count = static_cast<uint32_t>(w.addrs.size()) - addr_begin;
        break;
      case Unit::kAsync:
        exec_async(inst, w, exec, ctx);
        w.trace.back().addr_count = static_cast<uint32_t>(w.addrs.size()) - addr_begin;
        break;
      case Unit::kControl:
        control(inst, index, w, group, exec, ctx);
        continue;
    }
    advance(w, group, index + 1);
  }
}

void Executor::select(Warp& w, uint32_t& index, uint32_t& group) {
  uint32_t runnable = w.alive & ~w.waiting;
  if (runnable == 0) {
    // Every lane waits at a BSYNC whose other lanes cannot arrive: let the lowest wait
    // group through so that the warp makes progress.
    uint32_t low = UINT32_MAX;
    for_lanes(w.waiting, [&](unsigned l) { low = std::min(low, w.pc[l]); });
    for_lanes(w.waiting, [&](unsigned l) {
      if (w.pc[l] == low) {
        w.waiting &= ~(1U << l);
        w.pc[l] = low + 1;
      }
    });
    runnable = w.alive & ~w.waiting;
  }
  uint32_t low = UINT32_MAX;
  for_lanes(runnable, [&](unsigned l) { low = std::min(low, w.pc[l]); });
  group = 0;
  for_lanes(runnable, [&](unsigned l) {
    if (w.pc[l] == low) group |= 1U << l;
  });
  index = low;
}

void Executor::advance(Warp& w, uint32_t group, uint32_t next) {
  if (!w.diverged) {
    w.cur = next;
    return;
  }
  for_lanes(group, [&](unsigned l) { w.pc[l] = next; });
  maybe_converge(w);
}

void Executor::split(Warp& w, uint32_t group, uint32_t taken, uint32_t target,
                     uint32_t fallthrough) {
  if (!w.diverged) {
    if (taken == group) {
      w.cur = target;
      return;
    }
    if (taken == 0) {
      w.cur = fallthrough;
      return;
    }
    for_lanes(w.alive, [&](unsigned l) { w.pc[l] = w.cur; });
    w.diverged = true;
  }
  for_lanes(group, [&](unsigned l) { w.pc[l] = ((taken >> l) & 1U) ? target : fallthrough; });
  maybe_converge(w);
}

void Executor::release_waiting(Warp& w) {
  uint32_t pending = w.waiting;
  while (pending != 0) {
    const uint32_t at = w.pc[static_cast<unsigned>(std::countr_zero(pending))];
    uint32_t same = 0;
    for_lanes(pending, [&](unsigned l) {
      if (w.pc[l] == at) same |= 1U << l;
    });
    pending &= ~same;
    const uint32_t required = w.bssy[program_.insts[at].sub & 15U] & w.alive;
    if ((required & ~same) == 0) {
      w.waiting &= ~same;
      for_lanes(same, [&](unsigned l) { w.pc[l] = at + 1; });
    }
  }
}

void Executor::maybe_converge(Warp& w) {
  if (w.waiting != 0 || w.alive == 0) return;
  const uint32_t first = w.pc[static_cast<unsigned>(std::countr_zero(w.alive))];
  bool same = true;
  for_lanes(w.alive, [&](unsigned l) { same = same && w.pc[l] == first; });
  if (same) {
    w.diverged = false;
    w.cur = first;
  }
}

void Executor::control(const Inst& inst, uint32_t index, Warp& w, uint32_t group, uint32_t exec,
                       ExecContext& ctx) {
  switch (inst.op) {
    case Op::kBra:
    case Op::kCall: {
      // BRA Pn, target: the lanes whose guard and Pn hold; .ANY: every lane, if any does.
      uint32_t taken = exec;
      if (inst.psrc[0].reg != kPredTrue || inst.psrc[0].negate)
        taken = pred_mask(w, inst.psrc[0], taken);
      if ((inst.flags & flag::kAny) != 0 && taken != 0) taken = group;
      split(w, group, taken, inst.target, index + 1);
      return;
    }
    case Op::kRet: {
      if (!w.diverged) {
        for_lanes(w.alive, [&](unsigned l) { w.pc[l] = w.cur; });
        w.diverged = true;
      }
      for_lanes(group, [&](unsigned l) {
        w.pc[l] =
            ((exec >> l) & 1U) ? program_.index_of_pc(raw(w, inst.src[0], l), index) : index + 1;
      });
      maybe_converge(w);
      return;
    }
    case Op::kExit: {
      w.alive &= ~exec;
      if (w.alive == 0) {
        w.done = true;
        return;
      }
      if (w.diverged) {
        for_lanes(group & ~exec, [&](unsigned l) { w.pc[l] = index + 1; });
        release_waiting(w);
        maybe_converge(w);
      } else {
        w.cur = index + 1;
      }
      return;
    }
    case Op::kBssy:
      w.bssy[inst.sub & 15U] = group;
      advance(w, group, index + 1);
      return;
    case Op::kBsync:
      if (!w.diverged) {
        w.cur = index + 1;
        return;
      }
      w.waiting |= group;
      release_waiting(w);
      maybe_converge(w);
      return;
    case Op::kBmov: {
      uint32_t& barrier = w.bssy[inst.sub & 15U];
      if (inst.sub2 != 0) {
        if (exec != 0) barrier = raw(w, inst.src[0], static_cast<unsigned>(std::countr_zero(exec)));
      } else {
        const uint32_t value = barrier;
        for_lanes(exec, [&](unsigned l) { w.reg(inst.dst[0], l) = value; });
        if ((inst.flags & flag::kClear) != 0 && exec != 0) barrier = 0;
      }
      advance(w, group, index + 1);
      return;
    }
    case Op::kBreak:
      // BREAK Bn: the lanes whose guard holds leave barrier n, so that its BSYNC no longer
      // waits for them (they leave the region by another way: a loop's early exit).
      w.bssy[inst.sub & 15U] &= ~exec;
      if (!w.diverged) {
        w.cur = index + 1;
        return;
      }
      for_lanes(group, [&](unsigned l) { w.pc[l] = index + 1; });
      release_waiting(w);
      maybe_converge(w);
      return;
    case Op::kBar:
      w.at_barrier = exec != 0;
      advance(w, group, index + 1);
      return;
    case Op::kClusterArrive:
      // UCGABAR_ARV: the warp arrives at the cluster barrier's phase (once per phase).
      if (exec != 0 && w.cluster_arrived) {
        ctx.fail(inst,
                 "arrives at the cluster barrier twice in one phase (expected "
                 "UCGABAR_WAIT between two UCGABAR_ARV)");
      }
      if (exec != 0) w.cluster_arrived = true;
      advance(w, group, index + 1);
      return;
    case Op::kClusterWait:
      // UCGABAR_WAIT: until the phase the warp arrived at completes (none: at once).
      w.at_cluster_wait = exec != 0 && w.cluster_arrived;
      advance(w, group, index + 1);
      return;
    case Op::kNop:
    case Op::kWarpsync:
      advance(w, group, index + 1);
      return;
    default:
      ctx.fail(inst, "no control semantics for this operation");
  }
}

}  // namespace sassim::emu
