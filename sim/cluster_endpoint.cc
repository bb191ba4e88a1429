#include "sim/cluster_endpoint.h"

#include <fmt/format.h>

#include <algorithm>

#include "ground/error.h"

namespace sassim::sim {

void ClusterEndpoint::send(net::Message message) {
  if (outbox_ == nullptr) {
    throw Error(fmt::format("internal: {} holds a CTA of a cluster but has no SM-to-SM network",
                            owner_.name()));
  }
  outbox_->send(std::move(message));
}

std::uint64_t ClusterEndpoint::cross_port(std::uint64_t cycle, std::uint64_t bytes) {
  const std::uint64_t start = std::max(cycle, port_free_);
  port_free_ =
      start + std::max<std::uint64_t>((bytes + bytes_per_cycle_ - 1) / bytes_per_cycle_, 1);
  return port_free_;
}

void ClusterEndpoint::cluster_barrier_completed(std::uint32_t cta_slot, std::uint64_t cycle,
                                                std::uint64_t resume_cycle) {
  if (!listener_.holds_cta(cta_slot)) return;
  owner_.mark_changed();
  listener_.cluster_phase_completed(cta_slot, resume_cycle);
  const Release release{cycle + 1, cta_slot, resume_cycle};
  // Kept in delivery order; equal cycles in completion order.
  auto it = std::upper_bound(releases_.begin(), releases_.end(), release.at,
                             [](std::uint64_t at, const Release& r) { return at < r.at; });
  releases_.insert(it, release);
}

void ClusterEndpoint::multicast_issued(std::uint32_t cta_slot, std::uint64_t barrier,
                                       std::uint64_t bytes) {
  if (!listener_.holds_cta(cta_slot)) return;
  owner_.mark_changed();
  listener_.tx_issued(cta_slot, barrier, bytes);
}

void ClusterEndpoint::remote_shared_arrives(const RemoteSharedAccess& access) {
  if (access.multicast && !listener_.holds_cta(access.barrier.cta_slot)) return;
  owner_.mark_changed();
  insert_remote_shared(remote_, access);
}

void ClusterEndpoint::dsmem_replied(std::uint64_t seq, std::uint32_t token, std::uint64_t cycle) {
  owner_.mark_changed();
  insert_dsmem_reply(replies_, DsmemReply{cycle, seq, token});
}

void ClusterEndpoint::drop_cta(std::uint32_t cta_slot) {
  std::erase_if(releases_, [&](const Release& r) { return r.cta_slot == cta_slot; });
  std::erase_if(remote_, [&](const RemoteSharedAccess& a) {
    return a.multicast && a.barrier.cta_slot == cta_slot;
  });
}

}  // namespace sassim::sim
