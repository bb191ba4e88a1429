#include "sim/scheduler_policy.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "isa/error.h"

namespace sassim::sim {
namespace {

struct PolicyEntry {
  std::string_view name;
  std::unique_ptr<SchedulerPolicy> (*make)(const config::SchedulerConfig&);
};

// The registry: one line per policy.
constexpr PolicyEntry kPolicies[] = {
    {"gto", make_gto_policy},
    {"gty", make_gty_policy},
    {"lrr", make_lrr_policy},
    {"two_level", make_two_level_policy},
};

}  // namespace

std::unique_ptr<SchedulerPolicy> make_scheduler_policy(const config::SchedulerConfig& config) {
  const std::string& name = config.policy();
  for (const PolicyEntry& entry : kPolicies) {
    if (entry.name == name) return entry.make(config);
  }
  throw Error(fmt::format("sm.scheduler.policy: unknown warp scheduler policy '{}' (known: {})",
                          name, fmt::join(scheduler_policy_names(), ", ")));
}

std::vector<std::string> scheduler_policy_names() {
  std::vector<std::string> names;
  for (const PolicyEntry& entry : kPolicies) names.emplace_back(entry.name);
  return names;
}

}  // namespace sassim::sim
