// Loose round robin: the first ready warp after the one that issued last.
#include <bit>

#include "sim/scheduler_policy.h"

namespace sassim::sim {
namespace {

class LrrPolicy final : public SchedulerPolicy {
 public:
  unsigned pick(std::uint64_t ready_mask, std::span<const std::uint64_t> /*ages*/) override {
    unsigned start = (last_ + 1) % 64;
    std::uint64_t rotated = std::rotr(ready_mask, static_cast<int>(start));
    return (start + static_cast<unsigned>(std::countr_zero(rotated))) % 64;
  }
  void issued(unsigned warp) override { last_ = warp; }

 private:
  unsigned last_ = 63;  // so that warp 0 goes first
};

}  // namespace

std::unique_ptr<SchedulerPolicy> make_lrr_policy(const config::SchedulerConfig& /*config*/) {
  return std::make_unique<LrrPolicy>();
}

}  // namespace sassim::sim
