// Runs the CTAs of one launch of a decoded program, warp by warp: each warp runs until
// it reaches a CTA barrier, a try-wait on an mbarrier phase not yet complete, a wait at the
// cluster barrier, or exits; divergent lanes keep their own PCs, the group with the lowest
// PC runs first, and lanes that reach a BSYNC wait there for the other lanes of their BSSY
// mask. The CTAs of a thread block cluster (sm_90) run together, their warps in turn, so
// that they can reach each other's shared memory and mbarriers.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "traces/emu/state.h"

namespace sassim::emu {

struct LaunchShape {
  Dim3 grid;
  Dim3 block;
  Dim3 cluster;                 // CTAs per cluster in each dimension (1 x 1 x 1: none)
  uint32_t shared_bytes = 0;    // shared memory a CTA may address (window included)
  uint32_t local_bytes = 0;     // local memory per thread
  uint64_t max_warp_insts = 0;  // per CTA; 0 = no limit
};

class Executor {
 public:
  Executor(const Program& program, const ConstBank& bank, GlobalMemory& global,
           const LaunchShape& shape);

  // Runs the cluster whose first CTA (rank 0) is `first` to completion: its CTAs, by
  // rank, and their warps' trace records are in cluster(). Without clusters, CTA `first`.
  void run_cluster(Dim3 first);
  std::span<const Cta> cluster() const { return ctas_; }
  // Runs CTA `id` of a launch without clusters; its warps' trace records are in cta().warps.
  void run_cta(Dim3 id) { run_cluster(id); }
  const Cta& cta() const { return ctas_.front(); }
  // Highest shared-memory byte offset + 1 the last CTA touched (for the trace header).
  uint64_t warp_insts() const { return warp_insts_; }

 private:
  void reset_warps(Cta& cta);
  // Releases the CTA barriers every live warp of its CTA reached and the cluster barrier
  // phase every live warp of the cluster arrived at.
  void release_barriers();
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
  std::vector<Cta> ctas_;  // the cluster's, by rank
  uint64_t warp_insts_ = 0;
  uint64_t cta_insts_ = 0;  // by the cluster's CTAs
};

}  // namespace sassim::emu
