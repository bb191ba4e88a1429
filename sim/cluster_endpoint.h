#pragma once
// An SM's end of the SM-to-SM network (sim/sm_network.h): its port into the network
// (cluster.dsmem_bytes_per_cycle, traffic in order), the sequence numbers of what it
// sends, its outbox, the cluster traffic it sends (TMA multicast data and shared::cluster
// bulk copies, sim/cluster_multicast.cc; distributed shared memory accesses,
// sim/cluster_shared_access.cc), and what the network delivers to it. Deliveries wait
// here until the SM takes them in its tick: other SMs' accesses to its shared memory in
// (cycle, sending SM, sequence) order (sim/remote_shared.h), the replies to its own
// distributed shared memory accesses in (cycle, sequence) order, and cluster barrier
// releases in delivery order. Two deliveries act on the SM's CTAs at once, through its
// Listener: a completed cluster barrier phase and a copy's bytes issued on one of its
// mbarriers. A delivery for a CTA that retired in the step, before the network
// delivered, is dropped.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "ground/unit.h"
#include "memsys/sm_memory_port.h"
#include "sim/cluster_barrier.h"
#include "sim/remote_shared.h"
#include "sim/sm_network.h"
#include "sim/warp.h"

namespace sassim::sim {

class ClusterEndpoint final : public ClusterBarrierMember {
 public:
  // What a delivery does to the SM's CTAs.
  class Listener {
   public:
    virtual ~Listener() = default;
    virtual bool holds_cta(std::uint32_t cta_slot) const = 0;
    // The cluster barrier phase the CTA waits for completed; its warps resume at `resume`.
    virtual void cluster_phase_completed(std::uint32_t cta_slot, std::uint64_t resume) = 0;
    // A copy of `bytes` issued on the CTA's mbarrier at shared offset `barrier`.
    virtual void tx_issued(std::uint32_t cta_slot, std::uint64_t barrier, std::uint64_t bytes) = 0;
    // `bytes` of a copy completed on that mbarrier at `cycle`.
    virtual void tx_completed(std::uint32_t cta_slot, std::uint64_t barrier, std::uint64_t bytes,
                              std::uint64_t cycle) = 0;
    // `arrivals` threads of another CTA of the cluster arrived on that mbarrier at `cycle`.
    virtual void remote_arrived(std::uint32_t cta_slot, std::uint64_t barrier,
                                std::uint32_t arrivals, std::uint64_t cycle) = 0;
  };
  // A completed cluster barrier phase, applied from cycle `at` (the one after completion).
  struct Release {
    std::uint64_t at = 0;
    std::uint32_t cta_slot = 0;
    std::uint64_t resume = 0;
  };

  // `owner`: the SM's unit (SM `sm`), told when a delivery may change its next event.
  ClusterEndpoint(std::uint32_t sm, std::uint32_t bytes_per_cycle, ClockedUnit& owner,
                  Listener& listener)
      : sm_(sm),
        bytes_per_cycle_(bytes_per_cycle < 1 ? 1 : bytes_per_cycle),
        owner_(owner),
        listener_(listener) {}

  void set_outbox(SmNetwork::Outbox* outbox) { outbox_ = outbox; }
  // Throws sassim::Error (naming the SM) when the SM has no network.
  void send(net::Message message);
  // Takes `bytes` through the port from `cycle` on (after what it holds); returns the
  // cycle they have left it.
  std::uint64_t cross_port(std::uint64_t cycle, std::uint64_t bytes);
  std::uint64_t next_seq() { return seq_++; }

  // What the SM's CTAs send to the others of their cluster. A copy of `bytes` that will
  // complete on the mbarrier at shared offset `barrier` of each CTA of the cluster in
  // `ranks` (bit r: rank r) issued: this SM's CTAs learn of it now, the others over the
  // network.
  void copy_issued(const ClusterBarrier& cluster, std::uint32_t ranks, std::uint64_t barrier,
                   std::uint64_t bytes);
  // A TMA multicast load's data, read by `cycle`, goes to those CTAs' shared memory.
  void multicast_complete(const ClusterBarrier& cluster, std::uint32_t ranks, std::uint64_t barrier,
                          std::uint64_t bytes, std::uint64_t cycle);
  // A shared::cluster bulk copy (a reduction: `reduce`) whose source was read by `cycle`
  // goes to the shared memory of the CTA of `rank`.
  void cluster_copy_complete(const ClusterBarrier& cluster, std::uint32_t rank,
                             std::uint64_t barrier, std::uint64_t bytes, bool reduce,
                             std::uint64_t cycle);
  // A distributed shared memory access (its memory `token`, `bytes` moved) to the CTA
  // of `rank` leaves the address stage at `cycle` (cluster: null when the CTA is in none).
  void send_dsmem(const ClusterBarrier* cluster, std::uint32_t rank, std::uint32_t token,
                  std::uint64_t bytes, std::uint64_t cycle);
  // `arrivals` threads arrive, at `cycle`, on the mbarrier at shared offset `barrier` of
  // the CTA of `rank`: over the network (no port bytes, the network's latency) to another
  // SM, at once on this one.
  void send_arrive(const ClusterBarrier& cluster, std::uint32_t rank, std::uint64_t barrier,
                   std::uint32_t arrivals, std::uint64_t cycle);
  // Other SMs' accesses to this SM's shared memory due by `cycle` take its data path
  // (`port`); true when one was taken.
  bool deliver_remote_shared(std::uint64_t cycle, Picos now, memsys::SmMemoryPort& port);

  void cluster_barrier_completed(std::uint32_t cta_slot, std::uint64_t cycle,
                                 std::uint64_t resume_cycle) override;
  void multicast_issued(std::uint32_t cta_slot, std::uint64_t barrier,
                        std::uint64_t bytes) override;
  void remote_shared_arrives(const RemoteSharedAccess& access) override;
  void dsmem_replied(std::uint64_t seq, std::uint32_t token, std::uint64_t cycle) override;

  // The deliveries waiting, each queue in the order the SM takes them.
  bool has_remote_shared() const { return !remote_.empty(); }
  std::vector<DsmemReply>& replies() { return replies_; }
  std::vector<Release>& releases() { return releases_; }
  // The CTA retired: its releases and the multicast data for it are dropped.
  void drop_cta(std::uint32_t cta_slot);
  // The earliest cycle a delivery is due (kNeverCycle when none); the SM asks every step.
  std::uint64_t next_cycle() const {
    std::uint64_t t = kNeverCycle;
    if (!replies_.empty()) t = std::min(t, replies_.front().at);
    if (!releases_.empty()) t = std::min(t, releases_.front().at);
    if (!remote_.empty()) t = std::min(t, remote_.front().at);
    return t;
  }

 private:
  std::uint32_t sm_;
  std::uint32_t bytes_per_cycle_;
  ClockedUnit& owner_;
  Listener& listener_;
  SmNetwork::Outbox* outbox_ = nullptr;
  std::uint64_t port_free_ = 0;
  std::uint64_t seq_ = 0;
  std::vector<RemoteSharedAccess> remote_;
  std::vector<DsmemReply> replies_;
  std::vector<Release> releases_;
};

}  // namespace sassim::sim
