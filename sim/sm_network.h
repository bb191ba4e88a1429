#pragma once
// The SM-to-SM network of the GPCs (sm_90 thread block clusters): everything one SM
// hands to another goes through it, never a call on the peer. An SM sends while it
// ticks, into an outbox of its own (one writer, so SMs on different host threads never
// share one); the network, a unit ticked after the SMs and outside every tile, takes
// the outboxes in SM order in the same step and delivers to the receiving SMs through
// ClusterBarrierMember, so the outcome depends neither on the order SMs tick in nor on
// the host threads. It owns the crossing latency L (cluster.dsmem_latency_cycles):
// - multicast data and shared::cluster bulk copies reach the target L cycles after they
//   left the sender's port;
// - a distributed shared memory access reaches the target floor(L / 2) cycles after it
//   left the port, and its reply is back at the sender L - floor(L / 2) cycles after the
//   target served it (at least 1); with no CTA of that rank resident it comes back L
//   cycles after leaving the port;
// - a TMA copy's byte count issued on another CTA's mbarrier is known there from the
//   next cycle;
// - cluster barrier arrivals, warps leaving the barrier and CTAs leaving the cluster
//   reach the cluster's barrier (sim/cluster_barrier.h) in the step they happen; a
//   phase completed in cycle c releases its waiting warps from c + 1 on.
// The sender's port into the network (its bytes per cycle) stays on the SM.
#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "ground/link.h"
#include "ground/unit.h"
#include "sim/cluster_barrier.h"
#include "sim/remote_shared.h"

namespace sassim::sim {

namespace net {

// Multicast data or a bulk copy for `to`'s shared memory; it left the sender's port at
// `left` (access.at is set by the network).
struct SharedWrite {
  ClusterBarrierMember* to = nullptr;
  std::uint64_t left = 0;
  RemoteSharedAccess access;
};
// A distributed shared memory access to `to` (null: no CTA of that rank is resident),
// answered to access.sender.
struct DsmemRequest {
  ClusterBarrierMember* to = nullptr;
  std::uint64_t left = 0;
  RemoteSharedAccess access;
};
// The answer to access `token` (sequence `seq`) of `to`, served at `served`.
struct DsmemAnswer {
  ClusterBarrierMember* to = nullptr;
  std::uint64_t seq = 0;
  std::uint32_t token = 0;
  std::uint64_t served = 0;
};
// A copy of `bytes` issued on the mbarrier at `barrier` of the CTA in `cta_slot` of `to`.
struct TxIssued {
  ClusterBarrierMember* to = nullptr;
  std::uint32_t cta_slot = 0;
  std::uint64_t barrier = 0;
  std::uint64_t bytes = 0;
};
// A warp arrives at the cluster barrier in `cycle`.
struct BarrierArrive {
  std::shared_ptr<ClusterBarrier> cluster;
  std::uint64_t cycle = 0;
};
// A warp of the cluster exited in `cycle` (ClusterBarrier::warp_exited).
struct WarpExit {
  std::shared_ptr<ClusterBarrier> cluster;
  std::uint64_t cycle = 0;
  bool arrived_in_current_phase = false;
};
// The CTA in `cta_slot` of `sm` retired.
struct CtaLeave {
  std::shared_ptr<ClusterBarrier> cluster;
  const ClusterBarrierMember* sm = nullptr;
  std::uint32_t cta_slot = 0;
};

using Message = std::variant<SharedWrite, DsmemRequest, DsmemAnswer, TxIssued, BarrierArrive,
                             WarpExit, CtaLeave>;

}  // namespace net

// Applies a cluster barrier event (BarrierArrive, WarpExit, CtaLeave) to its cluster's
// barrier; false (nothing done) for any other message. The network's delivery, and an SM's
// own for a cluster of one.
bool apply_barrier_event(net::Message& message);

class SmNetwork final : public ClockedUnit {
 public:
  // What one SM sends in its tick; only that SM's tick writes it.
  class Outbox {
   public:
    void send(net::Message message) {
      messages_.push_back(std::move(message));
      bell_->ring(0);  // taken in this step, after the SMs
    }

   private:
    friend class SmNetwork;
    std::vector<net::Message> messages_;
    Doorbell* bell_ = nullptr;
  };

  SmNetwork(std::uint32_t num_sms, std::uint32_t latency_cycles);

  Outbox& outbox(std::uint32_t sm) { return outboxes_[sm]; }

  bool tick(std::uint64_t cycle, Picos now) override;
  Picos next_event_ps() const override { return bell_.earliest_ps(); }
  bool busy() const override { return false; }
  const std::string& name() const override { return name_; }
  std::string describe_state() const override;
  void report(StatSink& sink) const override;

 private:
  void deliver(net::Message& message);

  std::string name_ = "gpu.sm_network";
  std::uint32_t latency_;
  Doorbell bell_{this};
  std::vector<Outbox> outboxes_;
  std::uint64_t messages_ = 0;
};

}  // namespace sassim::sim
