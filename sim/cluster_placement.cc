// Placement of thread block clusters (sim/cta_scheduler.h): a cluster goes to the
// first GPC, round robin, on whose SMs all its CTAs fit now. Within the GPC its CTAs
// go one by one to the next SM that can take one more (from where the GPC's last
// cluster stopped), so a cluster spreads over the GPC's SMs and doubles up on an SM
// only when the others are full. Taken SMs take none.
#include <memory>

#include "sim/cta_scheduler.h"

namespace sassim::sim {

bool CtaScheduler::place_clusters(std::uint64_t cycle) {
  bool placed = false;
  const std::uint32_t num_gpcs = gpcs_.num_gpcs();
  std::vector<bool> taken;  // GPCs that took a cluster this cycle
  for (auto& k : kernels_) {
    while (k->next_cluster) {
      if (taken.empty()) taken.assign(num_gpcs, false);
      bool found = false;
      for (std::uint32_t i = 0; i < num_gpcs && !found; ++i) {
        const std::uint32_t gpc = (gpc_round_robin_ + i) % num_gpcs;
        if (taken[gpc]) continue;
        const std::vector<std::uint32_t> sms = fit_cluster(*k, gpc);
        if (sms.empty()) continue;
        place_cluster(*k, gpc, sms, cycle);
        taken[gpc] = true;
        gpc_round_robin_ = (gpc + 1) % num_gpcs;
        found = placed = true;
      }
      if (!found) break;
      if (interval_ != 0) return true;  // one cluster per dispatch interval
    }
  }
  return placed;
}

std::vector<std::uint32_t> CtaScheduler::fit_cluster(const Running& k, std::uint32_t gpc) const {
  const std::uint32_t first = gpcs_.first_sm(gpc), count = gpcs_.sms_in(gpc);
  const CtaResources& cta = k.context->cta;
  std::vector<std::uint32_t> taken(count, 0);  // CTAs of the cluster per SM of the GPC
  std::vector<std::uint32_t> sms;
  std::uint32_t next = sm_in_gpc_[gpc];
  for (std::size_t rank = 0; rank < k.next_cluster->ctas.size(); ++rank) {
    bool fits = false;
    for (std::uint32_t i = 0; i < count && !fits; ++i) {
      const std::uint32_t s = (next + i) % count;
      if (taken_[first + s] != 0 || !sms_[first + s]->can_accept(cta, taken[s] + 1)) continue;
      ++taken[s];
      sms.push_back(first + s);
      next = (s + 1) % count;
      fits = true;
    }
    if (!fits) return {};
  }
  return sms;
}

void CtaScheduler::place_cluster(Running& k, std::uint32_t gpc,
                                 const std::vector<std::uint32_t>& sms, std::uint64_t cycle) {
  ReadyCluster cluster = std::move(*k.next_cluster);
  auto barrier = std::make_shared<ClusterBarrier>(cluster_barrier_latency_);
  for (std::size_t rank = 0; rank < sms.size(); ++rank) {
    ClusterMembership member{barrier, cluster.id, static_cast<std::uint32_t>(rank)};
    if (observer_ != nullptr) observer_->placed(sms[rank], cluster.ctas[rank].id, member, cycle);
    sms_[sms[rank]]->accept(std::move(cluster.ctas[rank]), *k.context, cycle, std::move(member));
    ++k.in_flight;
    ++ctas_placed_;
  }
  sm_in_gpc_[gpc] = (sms.back() - gpcs_.first_sm(gpc) + 1) % gpcs_.sms_in(gpc);
  read_next(k);
}

}  // namespace sassim::sim
