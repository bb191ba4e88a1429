// Two-level round robin (Narasiman et al., MICRO 2011): the sub-core's warp slots form
// fetch groups of group_size; warps issue round robin within the current group, and
// the scheduler moves on to the next group (round robin over groups) only when no warp
// of the current group can issue. Groups then reach long-latency loads at different
// times, so one group computes while another waits.
#include <bit>

#include "sim/scheduler_policy.h"

namespace sassim::sim {
namespace {

class TwoLevelPolicy final : public SchedulerPolicy {
 public:
  explicit TwoLevelPolicy(unsigned group_size) : group_size_(group_size) {}

  unsigned pick(std::uint64_t ready_mask, std::span<const std::uint64_t> /*ages*/) override {
    const unsigned groups = (64 + group_size_ - 1) / group_size_;
    for (unsigned step = 0; step < groups; ++step) {
      const unsigned group = (group_ + step) % groups;
      const std::uint64_t in_group = group_mask(group) & ready_mask;
      if (in_group == 0) continue;
      group_ = group;
      // Round robin inside the group, after the warp that issued last.
      const unsigned first = group * group_size_;
      const unsigned start = last_ >= first && last_ < first + group_size_ ? last_ + 1 : first;
      const std::uint64_t after = in_group & (~std::uint64_t{0} << (start % 64));
      const std::uint64_t pool = (start < 64 && after != 0) ? after : in_group;
      return static_cast<unsigned>(std::countr_zero(pool));
    }
    return static_cast<unsigned>(std::countr_zero(ready_mask));  // unreachable: mask != 0
  }
  void issued(unsigned warp) override {
    last_ = warp;
    group_ = warp / group_size_;
  }

 private:
  std::uint64_t group_mask(unsigned group) const {
    const unsigned first = group * group_size_;
    if (first >= 64) return 0;
    const unsigned width = group_size_ >= 64 - first ? 64 - first : group_size_;
    const std::uint64_t bits = width == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1;
    return bits << first;
  }

  unsigned group_size_;
  unsigned group_ = 0;
  unsigned last_ = 64;  // none yet
};

}  // namespace

std::unique_ptr<SchedulerPolicy> make_two_level_policy(const config::SchedulerConfig& config) {
  return std::make_unique<TwoLevelPolicy>(config.group_size());
}

}  // namespace sassim::sim
