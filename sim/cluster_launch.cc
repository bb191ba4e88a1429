#include "sim/cluster_launch.h"

#include <algorithm>
#include <string>

#include <fmt/format.h>

#include "ground/error.h"
#include "isa/arch.h"

namespace sassim::sim {
namespace {

// CTAs of these resources an empty SM holds.
std::uint32_t ctas_per_sm(const CtaResources& cta, const config::GpuConfig& config) {
  const config::SmConfig& sm = config.sm();
  std::uint32_t n = sm.max_ctas();
  if (cta.warps != 0) n = std::min(n, sm.max_warps() / cta.warps);
  if (cta.threads != 0) n = std::min(n, sm.max_threads() / cta.threads);
  if (cta.registers != 0) n = std::min(n, sm.registers() / cta.registers);
  const std::uint32_t shared = cta.shared_carveout_bytes != CtaResources::kKeepCarveout
                                   ? cta.shared_carveout_bytes
                                   : config.l1().shared_memory_bytes();
  if (cta.shared_bytes != 0) n = std::min(n, shared / cta.shared_bytes);
  return n;
}

}  // namespace

void check_cluster_launch(const traces::KernelInfo& info, const CtaResources& cta,
                          const config::GpuConfig& config, const GpcLayout& gpcs) {
  const traces::Dim3& c = info.cluster;
  const std::uint64_t size = c.count();
  if (size <= 1) return;
  const std::string where = fmt::format("{}:{}: -cluster dim = ({},{},{})", info.source,
                                        info.cluster_line, c.x, c.y, c.z);
  const auto arch = isa::arch_from_name(config.arch());
  if (!arch || *arch < isa::Arch::kSm90) {
    throw Error(fmt::format("{} on {} ({}): expected a GPU of sm_90 or later for clusters", where,
                            config.name(), config.arch()));
  }
  const std::uint32_t limit = config.cluster().max_cluster_ctas();
  if (size > limit) {
    throw Error(fmt::format("{} has {} CTAs: expected at most cluster.max_cluster_ctas = {} of {}",
                            where, size, limit, config.name()));
  }
  std::uint32_t largest = 0;
  for (std::uint32_t g = 0; g < gpcs.num_gpcs(); ++g) largest = std::max(largest, gpcs.sms_in(g));
  const std::uint64_t room = std::uint64_t{ctas_per_sm(cta, config)} * largest;
  if (size > room) {
    throw Error(fmt::format(
        "{} has {} CTAs but at most {} of this kernel's CTAs fit on one GPC of {} ({} per SM, "
        "{} SMs in the largest GPC): expected a cluster that fits on one GPC",
        where, size, room, config.name(), ctas_per_sm(cta, config), largest));
  }
}

}  // namespace sassim::sim
