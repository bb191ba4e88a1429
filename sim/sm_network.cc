#include "sim/sm_network.h"

#include <fmt/format.h>

#include <algorithm>

namespace sassim::sim {

SmNetwork::SmNetwork(std::uint32_t num_sms, std::uint32_t latency_cycles)
    : latency_(latency_cycles), outboxes_(num_sms) {
  for (Outbox& box : outboxes_) box.bell_ = &bell_;
}

bool SmNetwork::tick(std::uint64_t /*cycle*/, Picos /*now*/) {
  bell_.reset();
  bool progress = false;
  for (Outbox& box : outboxes_) {
    // What a delivery does at the receiver sends nothing.
    for (net::Message& m : box.messages_) deliver(m);
    messages_ += box.messages_.size();
    progress |= !box.messages_.empty();
    box.messages_.clear();
  }
  return progress;
}

void SmNetwork::deliver(net::Message& message) {
  const std::uint64_t there = latency_ / 2;
  const std::uint64_t back = std::max<std::uint64_t>(latency_ - there, 1);
  std::visit(
      [&](auto& m) {
        using T = std::decay_t<decltype(m)>;
        if constexpr (std::is_same_v<T, net::SharedWrite>) {
          m.access.at = m.left + latency_;
          m.to->remote_shared_arrives(m.access);
        } else if constexpr (std::is_same_v<T, net::DsmemRequest>) {
          if (m.to == nullptr) {  // no target data path to take
            m.access.sender->dsmem_replied(m.access.seq, m.access.token, m.left + latency_);
            return;
          }
          m.access.at = m.left + there;
          m.to->remote_shared_arrives(m.access);
        } else if constexpr (std::is_same_v<T, net::DsmemAnswer>) {
          m.to->dsmem_replied(m.seq, m.token, m.served + back);
        } else if constexpr (std::is_same_v<T, net::TxIssued>) {
          m.to->multicast_issued(m.cta_slot, m.barrier, m.bytes);
        } else {
          apply_barrier_event(message);
        }
      },
      message);
}

bool apply_barrier_event(net::Message& message) {
  if (auto* m = std::get_if<net::BarrierArrive>(&message)) {
    m->cluster->arrive(m->cycle);
  } else if (auto* e = std::get_if<net::WarpExit>(&message)) {
    e->cluster->warp_exited(e->cycle, e->arrived_in_current_phase);
  } else if (auto* l = std::get_if<net::CtaLeave>(&message)) {
    l->cluster->leave(*l->sm, l->cta_slot);
  } else {
    return false;
  }
  return true;
}

std::string SmNetwork::describe_state() const {
  std::size_t waiting = 0;
  for (const Outbox& box : outboxes_) waiting += box.messages_.size();
  return fmt::format("{}: {} messages delivered, {} waiting", name_, messages_, waiting);
}

void SmNetwork::report(StatSink& /*sink*/) const {}

}  // namespace sassim::sim
