#pragma once
// Warp scheduler policies: each cycle a sub-core's scheduler picks one warp among
// those able to issue. A policy is one small file registered in scheduler_policy.cc
// under its name in config::kSchedulerPolicies and chosen by `sm.scheduler.policy`.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "configs/sassim_config.pb.h"

namespace sassim::sim {

class SchedulerPolicy {
 public:
  virtual ~SchedulerPolicy() = default;
  // Picks one warp among the candidates (bit i set = local warp i can issue).
  // ages[i] orders warps by when they were launched (smaller = older). Returns a
  // set bit's index; ready_mask is never 0.
  virtual unsigned pick(std::uint64_t ready_mask, std::span<const std::uint64_t> ages) = 0;
  // Tells the policy which warp issued (pick's result, or another warp's when the
  // caller overrode the choice).
  virtual void issued(unsigned warp) = 0;
};

// The policy `config.policy` names; throws sassim::Error for an unknown name (the loader
// refuses those first).
std::unique_ptr<SchedulerPolicy> make_scheduler_policy(const config::SchedulerConfig& config);

// Policy implementations (one file each).
std::unique_ptr<SchedulerPolicy> make_gto_policy(const config::SchedulerConfig& config);
std::unique_ptr<SchedulerPolicy> make_gty_policy(const config::SchedulerConfig& config);
std::unique_ptr<SchedulerPolicy> make_lrr_policy(const config::SchedulerConfig& config);
std::unique_ptr<SchedulerPolicy> make_two_level_policy(const config::SchedulerConfig& config);

}  // namespace sassim::sim
