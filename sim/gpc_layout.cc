#include "sim/gpc_layout.h"

#include <algorithm>

namespace sassim::sim {

GpcLayout::GpcLayout(const std::vector<std::uint32_t>& sms_per_gpc) : first_sm_{0} {
  for (std::uint32_t n : sms_per_gpc) first_sm_.push_back(first_sm_.back() + n);
}

GpcLayout GpcLayout::from_config(const config::GpuConfig& config) {
  const auto& gpcs = config.cluster().gpc_sms();
  if (gpcs.empty()) return GpcLayout(config.num_sms());
  return GpcLayout(std::vector<std::uint32_t>(gpcs.begin(), gpcs.end()));
}

std::uint32_t GpcLayout::gpc_of(std::uint32_t sm) const {
  const auto it = std::upper_bound(first_sm_.begin(), first_sm_.end(), sm);
  return static_cast<std::uint32_t>(it - first_sm_.begin()) - 1;
}

}  // namespace sassim::sim
