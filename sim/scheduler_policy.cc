#include "sim/scheduler_policy.h"

#include <iterator>

#include "configs/choices.h"
#include "ground/error.h"

namespace sassim::sim {
namespace {

using PolicyFactory = std::unique_ptr<SchedulerPolicy> (*)(const config::SchedulerConfig&);

// The registry: one line per policy, in the order of config::kSchedulerPolicies (the
// names the loader accepts).
constexpr PolicyFactory kPolicies[] = {
    make_gto_policy,        // gto
    make_gty_policy,        // gty
    make_lrr_policy,        // lrr
    make_two_level_policy,  // two_level
};
static_assert(std::size(kPolicies) == config::kSchedulerPolicies.size());

}  // namespace

std::unique_ptr<SchedulerPolicy> make_scheduler_policy(const config::SchedulerConfig& config) {
  if (auto index = config::choice_index(config::kSchedulerPolicies, config.policy())) {
    return kPolicies[*index](config);
  }
  throw Error(
      *config::choice_problem("sm.scheduler.policy", config.policy(), config::kSchedulerPolicies));
}

}  // namespace sassim::sim
