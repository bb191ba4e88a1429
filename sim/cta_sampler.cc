#include "sim/cta_sampler.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "sim/kernel_sampler.h"

namespace sassim::sim {

CtaSampler::CtaSampler(std::uint64_t grid_ctas, std::uint64_t wave_ctas, double warm_dram_bytes,
                       std::function<double(const StatsSnapshot&)> dram_bytes,
                       CtaSamplingOptions options,
                       std::function<double(const StatsSnapshot&)> allocated_bytes)
    : grid_(grid_ctas),
      wave_(std::max<std::uint64_t>(wave_ctas, 1)),
      warm_bytes_(warm_dram_bytes),
      dram_bytes_(std::move(dram_bytes)),
      allocated_bytes_(allocated_bytes ? std::move(allocated_bytes) : dram_bytes_),
      options_(options) {
  options_.block_windows = std::max<std::uint32_t>(options_.block_windows, 1);
  options_.blocks = std::max<std::uint32_t>(options_.blocks, 2);
  block_windows_ = options_.block_windows;
}

void CtaSampler::observe(std::uint64_t retired, std::uint64_t cycle,
                         const std::function<StatsSnapshot()>& snapshot) {
  if (!started_) {
    started_ = true;
    windows_.push_back({cycle, snapshot()});  // the start of the first window
    start_bytes_ = dram_bytes_(windows_.back().at_end);
    start_allocated_ = last_allocated_ = allocated_bytes_(windows_.back().at_end);
  }
  while (!decided_ && !stopped_ && retired >= (windows_done_ + 1) * wave_) {
    windows_.push_back({cycle, snapshot()});
    ++windows_done_;
    if (!warm_) {
      // Until the L2 has turned over (the ramp included), a window only marks where the
      // next may start; so does the first window of a kernel that will not turn it over.
      warm_ = dram_bytes_(windows_.back().at_end) - start_bytes_ >= warm_bytes_;
      const double allocated = allocated_bytes_(windows_.back().at_end);
      if (!warm_ && windows_done_ >= 2) {
        // Its remaining CTAs, at twice the last window's allocations per CTA, stay below.
        const double per_cta = (allocated - last_allocated_) / static_cast<double>(wave_);
        const double remaining = static_cast<double>(grid_ - std::min(grid_, retired));
        warm_ = allocated - start_allocated_ + 2 * per_cta * remaining < warm_bytes_;
      }
      last_allocated_ = allocated;
      windows_.erase(windows_.begin(), windows_.end() - 1);
      // What the L2 writes back echoes what was written one turnover earlier: the blocks
      // together span at least the windows one turnover took, a whole period of it.
      if (warm_) {
        block_windows_ = std::max<std::uint64_t>(
            block_windows_, (windows_done_ + options_.blocks - 1) / options_.blocks);
      }
      continue;
    }
    const std::size_t span = block_windows_ * options_.blocks;
    if (windows_.size() > span + 1) windows_.erase(windows_.begin());
    if (windows_.size() < span + 1) continue;
    const std::vector<double> rates = block_rates();
    double mean = 0;
    for (double r : rates) mean += r / static_cast<double>(rates.size());
    const bool stable = std::all_of(rates.begin(), rates.end(), [&](double r) {
      return std::abs(r - mean) <= options_.tolerance * mean;
    });
    if (stable) decide(rates);
  }
}

std::vector<double> CtaSampler::block_rates() const {
  std::vector<double> rates;
  const std::size_t w = block_windows_;
  for (std::size_t b = 0; b < options_.blocks; ++b) {
    const std::uint64_t start = windows_[b * w].end_cycle, end = windows_[(b + 1) * w].end_cycle;
    rates.push_back(static_cast<double>(w * wave_) /
                    static_cast<double>(std::max<std::uint64_t>(end - start, 1)));
  }
  return rates;
}

void CtaSampler::decide(const std::vector<double>& rates) {
  decided_ = true;
  const std::uint64_t unread = grid_ > read_ ? grid_ - read_ : 0;
  if (unread < 2 * wave_) return;  // not worth it: the tail is a wave anyway
  to_skip_ = unread - wave_;
  const std::size_t k = rates.size();
  stable_ctas_ = k * block_windows_ * wave_;
  rate_ = static_cast<double>(stable_ctas_) /
          static_cast<double>(
              std::max<std::uint64_t>(windows_.back().end_cycle - windows_.front().end_cycle, 1));
  double mean = 0, ss = 0;
  for (double r : rates) mean += r / static_cast<double>(k);
  for (double r : rates) ss += (r - mean) * (r - mean);
  rate_ci_ = t95(static_cast<std::uint32_t>(k - 1)) * std::sqrt(ss / static_cast<double>(k - 1)) /
             std::sqrt(static_cast<double>(k));
  stable_change_ = windows_.back().at_end.minus(windows_.front().at_end);
}

bool CtaSampler::skip_next() {
  ++read_;
  if (stopped_ || to_skip_ == 0) return false;
  --to_skip_;
  return true;
}

void CtaSampler::skipped(std::uint64_t warp_insts) {
  ++skipped_ctas_;
  skipped_insts_ += warp_insts;
}

double CtaSampler::skipped_cycles() const {
  return rate_ > 0 ? static_cast<double>(skipped_ctas_) / rate_ : 0.0;
}

double CtaSampler::skipped_cycles_ci95() const {
  return rate_ > 0 ? skipped_cycles() * rate_ci_ / rate_ : 0.0;
}

void CtaSampler::extrapolate(StatsSnapshot& change) const {
  if (!stable_change_ || skipped_ctas_ == 0 || stable_ctas_ == 0) return;
  const double f = static_cast<double>(skipped_ctas_) / static_cast<double>(stable_ctas_);
  for (std::size_t i = 0; i < change.values.size() && i < stable_change_->values.size(); ++i) {
    change.values[i] += stable_change_->values[i] * f;
  }
}

}  // namespace sassim::sim
