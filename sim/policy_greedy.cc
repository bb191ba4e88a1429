// Greedy policies: keep issuing from the warp that issued last while it can;
// otherwise the oldest ready warp ("gto") or the youngest ("gty", reported for
// recent NVIDIA cores).
#include <bit>

#include "sim/scheduler_policy.h"

namespace sassim::sim {
namespace {

template <bool kOldestFirst>
class GreedyPolicy final : public SchedulerPolicy {
 public:
  unsigned pick(std::uint64_t ready_mask, std::span<const std::uint64_t> ages) override {
    if (last_ < 64 && (ready_mask >> last_) & 1U) return last_;
    unsigned best = 64;
    for (std::uint64_t m = ready_mask; m != 0; m &= m - 1) {
      auto w = static_cast<unsigned>(std::countr_zero(m));
      if (best == 64 || (kOldestFirst ? ages[w] < ages[best] : ages[w] > ages[best])) best = w;
    }
    return best;
  }
  void issued(unsigned warp) override { last_ = warp; }

 private:
  unsigned last_ = 64;  // none yet
};

}  // namespace

std::unique_ptr<SchedulerPolicy> make_gto_policy(const config::SchedulerConfig& /*config*/) {
  return std::make_unique<GreedyPolicy<true>>();
}

std::unique_ptr<SchedulerPolicy> make_gty_policy(const config::SchedulerConfig& /*config*/) {
  return std::make_unique<GreedyPolicy<false>>();
}

}  // namespace sassim::sim
