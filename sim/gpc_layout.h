#pragma once
// Which SMs form each graphics processing cluster (GPC). SMs are numbered GPC by GPC
// (memsys/noc_routes.h), so a GPC is a run of consecutive SM numbers. The CTAs of a
// thread block cluster run on SMs of one GPC.
#include <cstdint>
#include <vector>

#include "configs/sassim_config.pb.h"

namespace sassim::sim {

class GpcLayout {
 public:
  // One GPC holding `num_sms` SMs.
  explicit GpcLayout(std::uint32_t num_sms = 0) : first_sm_{0, num_sms} {}
  // GPCs of `sms_per_gpc[i]` SMs each, in SM-number order.
  explicit GpcLayout(const std::vector<std::uint32_t>& sms_per_gpc);
  // cluster.gpc_sms, or one GPC of every SM when it is unset (config/validate checked
  // that the counts add up to num_sms).
  static GpcLayout from_config(const config::GpuConfig& config);

  std::uint32_t num_gpcs() const { return static_cast<std::uint32_t>(first_sm_.size() - 1); }
  std::uint32_t num_sms() const { return first_sm_.back(); }
  // SMs [first_sm(g), first_sm(g) + sms_in(g)) form GPC g.
  std::uint32_t first_sm(std::uint32_t gpc) const { return first_sm_[gpc]; }
  std::uint32_t sms_in(std::uint32_t gpc) const { return first_sm_[gpc + 1] - first_sm_[gpc]; }
  std::uint32_t gpc_of(std::uint32_t sm) const;

 private:
  std::vector<std::uint32_t> first_sm_;  // first SM of each GPC, then the SM count
};

}  // namespace sassim::sim
