#pragma once
// The SM's front end: per sub-core L0 and per SM L1 instruction caches, a fetch stage
// per sub-core (one instruction per cycle) and a per-warp instruction buffer, plus
// the redirect after a taken branch. Event-driven: a fetch is scheduled when a
// buffer entry frees (a warp issued or started) and its arrival cycle computed at
// once from the cache state, so nothing is polled per cycle. Fetch requests of a
// sub-core are served in the order they arise (earliest cycle first; ties in the
// order the SM reports them), each taking the first free fetch cycle. An optional
// stream buffer per sub-core (sim/stream_buffer.h) prefetches the lines after a miss.
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "configs/sassim_config.pb.h"
#include "isa/instruction.h"
#include "sim/inst_cache.h"
#include "sim/stream_buffer.h"
#include "sim/warp_state.h"
#include "traces/kernel_trace.h"

namespace sassim::sim {

struct FrontendCounters {
  std::uint64_t fetches = 0;  // instructions fetched (refetches after a redirect included)
  std::uint64_t l0i_hits = 0, l0i_misses = 0;
  std::uint64_t l1i_hits = 0, l1i_misses = 0;  // stream buffer requests included
  std::uint64_t stream_buffer_hits = 0;        // first-level misses it served
  std::uint64_t prefetches = 0;                // lines the stream buffers requested
  std::uint64_t taken_branches = 0;            // redirects: the ibuffer was flushed
};

class Frontend {
 public:
  static constexpr std::uint32_t kMaxEntries = 16;

  Frontend(const config::GpuConfig& config, std::uint32_t max_warps);

  // Starts a warp's instruction stream; its first instructions are fetched from
  // `cycle`. `code_base` separates the code of different kernels in the caches.
  void start_warp(unsigned slot, traces::WarpWindow* insts, const traces::StaticInstTable* statics,
                  std::uint64_t code_base, std::uint64_t cycle);
  // Earliest cycle at which fetch lets the warp issue its next instruction.
  std::uint64_t ready(unsigned slot) const {
    const WarpFetch& w = warps_[slot];
    if (entries_ == 0 || w.head >= w.fetched) return w.resolve_until;
    return w.arrival[w.head % kMaxEntries];
  }
  // The warp issued its next instruction at `cycle`. `redirect_cycle` != 0: it was a
  // taken branch, the buffer is flushed and fetch resumes at the target then.
  void issued(unsigned slot, std::uint64_t cycle, std::uint64_t redirect_cycle);
  // Why the warp cannot issue at `cycle` because of fetch, if it cannot.
  std::optional<WarpCycleState> stall(unsigned slot, std::uint64_t cycle) const {
    const WarpFetch& w = warps_[slot];
    if (cycle < w.resolve_until) return WarpCycleState::kBranchResolving;
    if (entries_ != 0 && w.head < w.fetched && w.arrival[w.head % kMaxEntries] > cycle) {
      return WarpCycleState::kNoInstruction;
    }
    return std::nullopt;
  }
  // The cycle at which the stall stall(slot, cycle) reports may end.
  std::uint64_t stall_end(unsigned slot, std::uint64_t cycle) const {
    const WarpFetch& w = warps_[slot];
    return cycle < w.resolve_until ? w.resolve_until : w.arrival[w.head % kMaxEntries];
  }
  const FrontendCounters& counters() const { return counters_; }

 private:
  struct WarpFetch {
    traces::WarpWindow* insts = nullptr;  // the warp's, decoded ahead as fetch needs
    const traces::StaticInstTable* statics = nullptr;
    std::uint64_t code_base = 0;
    std::uint32_t head = 0;           // next instruction to issue
    std::uint32_t fetched = 0;        // next instruction to fetch
    std::uint64_t resolve_until = 0;  // a taken branch's target is known from this cycle
    std::array<std::uint64_t, kMaxEntries> arrival{};  // issuable cycle, by index % kMaxEntries
  };
  // Fetches until the warp's buffer is full, the first at `cycle` or later.
  void fill(unsigned slot, std::uint64_t cycle);
  // The first fetch cycle of the sub-core at or after `cycle`, now taken.
  std::uint64_t reserve_fetch_cycle(unsigned sub, std::uint64_t cycle);
  // Cycle at which the instruction at `address`, fetched at `cycle`, leaves the caches.
  std::uint64_t cache_arrival(unsigned sub, std::uint64_t address, std::uint64_t cycle);
  // Arrival of the line holding `address`, requested at `cycle` from the level below
  // the sub-core's first instruction cache (the L1i behind an L0, else the L2 path).
  std::uint64_t below_first(bool l0, std::uint64_t address, std::uint64_t cycle);
  // The stream buffer requests lines from `cycle` on until it is full.
  void prefetch(unsigned sub, bool l0, std::uint64_t cycle);

  std::uint32_t entries_, decode_, l0_hit_, l1_hit_, miss_;
  std::uint32_t sub_cores_;
  std::vector<WarpFetch> warps_;
  std::vector<InstCache> l0_;  // one per sub-core
  InstCache l1_;
  std::vector<StreamBuffer> stream_;  // one per sub-core; empty = none
  std::uint32_t stream_line_bytes_ = 128;
  // Fetch cycles taken, per sub-core: a ring of kFetchWindow cycles each.
  static constexpr std::uint32_t kFetchWindow = 128;
  std::vector<std::uint64_t> taken_;
  FrontendCounters counters_;
};

}  // namespace sassim::sim
