#pragma once
// Sampling within a kernel (`sassim run --sample ctas`): the kernel's CTAs retire in
// windows of one wave (the CTAs the GPU holds at once), and windows make blocks of
// `block_windows`. A kernel that turns the L2 over reaches its steady pace only then,
// so windows count only from the first one that ends after the kernel has moved
// `warm_dram_bytes` through DRAM (the L2's capacity: its contents, dirty lines included,
// have turned over), or from the second window (past the ramp) once the kernel is seen
// never to: what the L2 allocated plus its remaining CTAs at twice the last window's
// allocations per CTA stays below `warm_dram_bytes`. The L2 writes dirty lines back one turnover
// after they were written, so a kernel's pace can swing with that period: a block holds at least
// the windows the turnover took divided by `blocks`, so that the blocks together span one. Once the
// CTA completion rates of the last `blocks` blocks are each within `tolerance` of their mean, the
// CTAs still unread but the last wave are read and skipped, not simulated (their accesses may warm
// the L2: set_warmup); the last wave is simulated in detail (the tail). The skipped CTAs add
// skipped / rate cycles (the rate over those blocks) and, to every counter, its change over the
// blocks per CTA retired in them times the CTAs skipped; their warp instructions are counted
// exactly. The 95% interval of the added cycles is Student's t over the block rates (t(blocks - 1)
// x s / sqrt(blocks), relative to the rate).
#include <cstdint>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "sim/stats.h"
#include "traces/kernel_trace.h"

namespace sassim::sim {

struct CtaSamplingOptions {
  std::uint32_t block_windows = 3;
  std::uint32_t blocks = 3;
  double tolerance = 0.02;
};

class CtaSampler {
 public:
  // A kernel of `grid_ctas` CTAs of which `wave_ctas` fit on the GPU at once.
  // `dram_bytes` gives the bytes moved at the DRAM channels of a snapshot's counters;
  // `allocated_bytes`, for the projection of whether the kernel never turns the L2
  // over, at least the bytes the L2 allocated (DRAM bytes plus the L2's miss bytes: a
  // store allocates without DRAM traffic); empty: `dram_bytes`.
  CtaSampler(std::uint64_t grid_ctas, std::uint64_t wave_ctas, double warm_dram_bytes,
             std::function<double(const StatsSnapshot&)> dram_bytes,
             CtaSamplingOptions options = {},
             std::function<double(const StatsSnapshot&)> allocated_bytes = {});

  // Told after each step: `retired` CTAs have retired by `cycle`; `snapshot` gives every
  // counter now (asked only at the end of a window).
  void observe(std::uint64_t retired, std::uint64_t cycle,
               const std::function<StatsSnapshot()>& snapshot);
  // The CTA scheduler reads the kernel's next CTA: true when it is to be skipped
  // (then skipped() is told its warp instructions), false when it is placed.
  bool skip_next();
  void skipped(std::uint64_t warp_insts);
  // What a skipped CTA's accesses leave in the caches (sim/cta_warmup.h): the scheduler
  // hands each skipped CTA here; without a warm-up it is dropped.
  void set_warmup(std::function<void(traces::CtaTrace)> warmup) { warmup_ = std::move(warmup); }
  void warm(traces::CtaTrace cta) const {
    if (warmup_) warmup_(std::move(cta));
  }
  // The kernel no longer runs alone: nothing more is skipped.
  void stop() { stopped_ = true; }

  std::uint64_t skipped_ctas() const { return skipped_ctas_; }
  std::uint64_t skipped_warp_insts() const { return skipped_insts_; }
  // Cycles the skipped CTAs stand for and the 95% half-width of that figure.
  double skipped_cycles() const;
  double skipped_cycles_ci95() const;
  // Adds to `change` (a kernel's counters) what the skipped CTAs stand for.
  void extrapolate(StatsSnapshot& change) const;

 private:
  struct Window {
    std::uint64_t end_cycle = 0;
    StatsSnapshot at_end;
  };
  // The rate of each of the last `blocks` blocks, oldest first (enough windows seen).
  std::vector<double> block_rates() const;
  void decide(const std::vector<double>& rates);

  std::uint64_t grid_, wave_;
  double warm_bytes_;
  std::function<double(const StatsSnapshot&)> dram_bytes_, allocated_bytes_;
  std::function<void(traces::CtaTrace)> warmup_;
  double start_bytes_ = 0;
  double start_allocated_ = 0, last_allocated_ = 0;  // at the start, at the last window's end
  bool warm_ = false;
  CtaSamplingOptions options_;
  std::uint64_t read_ = 0;  // CTAs the scheduler took from the trace (placed or skipped)
  bool started_ = false;
  std::vector<Window> windows_;  // the last block_windows x blocks + 1
  std::uint64_t windows_done_ = 0;
  // Windows a block: options_.block_windows, or more once warm (observe()).
  std::uint64_t block_windows_ = 0;
  std::uint64_t to_skip_ = 0;  // decided, not yet read
  bool decided_ = false, stopped_ = false;
  std::uint64_t skipped_ctas_ = 0, skipped_insts_ = 0;
  // The stable blocks: their rate, its 95% half-width, the counters' change over them
  // and the CTAs that retired in them.
  double rate_ = 0, rate_ci_ = 0;
  std::optional<StatsSnapshot> stable_change_;
  std::uint64_t stable_ctas_ = 0;
};

}  // namespace sassim::sim
