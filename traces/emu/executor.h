// Runs the CTAs of one launch of a decoded program, warp by warp: each warp runs until
// it reaches a CTA barrier, a try-wait on an mbarrier phase not yet complete, or exits; divergent
// lanes keep their own PCs, the group with the lowest PC runs first, and lanes that reach a BSYNC
// wait there for the other lanes of their BSSY mask.
#pragma once

#include <cstdint>

#include "traces/emu/state.h"

namespace sassim::emu {

struct LaunchShape {
  Dim3 grid;
  Dim3 block;
  uint32_t shared_bytes = 0;    // shared memory a CTA may address (window included)
  uint32_t local_bytes = 0;     // local memory per thread
  uint64_t max_warp_insts = 0;  // per CTA; 0 = no limit
};

class Executor {
 public:
  Executor(const Program& program, const ConstBank& bank, GlobalMemory& global,
           const LaunchShape& shape);

  // Runs CTA `id` to completion; its warps' trace records are in cta().warps.
  void run_cta(Dim3 id);
  const Cta& cta() const { return cta_; }
  // Highest shared-memory byte offset + 1 the last CTA touched (for the trace header).
  uint64_t warp_insts() const { return warp_insts_; }

 private:
  void reset_warps();
  [[noreturn]] void no_progress() const;
  void run_warp(Warp& w, ExecContext& ctx);
  // Executes a control operation for `group` (guard results in `exec`).
  void control(const Inst& inst, uint32_t index, Warp& w, uint32_t group, uint32_t exec,
               ExecContext& ctx);
  void select(Warp& w, uint32_t& index, uint32_t& group);
  void advance(Warp& w, uint32_t group, uint32_t next);
  void split(Warp& w, uint32_t group, uint32_t taken, uint32_t target, uint32_t fallthrough);
  void release_waiting(Warp& w);
  void maybe_converge(Warp& w);

  const Program& program_;
  const ConstBank& bank_;
  GlobalMemory& global_;
  LaunchShape shape_;
  Cta cta_;
  uint64_t warp_insts_ = 0;
  uint64_t cta_insts_ = 0;
};

}  // namespace sassim::emu
