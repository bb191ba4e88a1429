#include "sim/scheduler_policy.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "isa/error.h"

namespace sassim::sim {
namespace {

struct PolicyEntry {
  std::string_view name;
  std::unique_ptr<SchedulerPolicy> (*make)();
};

// The registry: one line per policy.
constexpr PolicyEntry kPolicies[] = {
    {"gto", make_gto_policy},
    {"lrr", make_lrr_policy},
};

}  // namespace

std::unique_ptr<SchedulerPolicy> make_scheduler_policy(std::string_view name) {
  for (const PolicyEntry& entry : kPolicies) {
    if (entry.name == name) return entry.make();
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
