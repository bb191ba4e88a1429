#pragma once
// The barrier of one thread block cluster (UCGABAR_ARV / UCGABAR_WAIT, PTX
// barrier.cluster.arrive / .wait): a phase completes when every warp of every CTA of
// the cluster that has not exited has arrived; the warps waiting for it, on whichever
// SM, may issue `latency` cycles after the last arrival. Shared by the cluster's CTAs
// (each holds it while resident); only the SM-to-SM network (sim/sm_network.h) and the
// CTA scheduler change it, outside the SMs' ticks, and SMs read its members while they
// tick. It tells each member CTA's SM of a completion through ClusterBarrierMember, and
// the SM resumes its waiting warps in its own tick (sim/sm_cluster.cc). A cluster of
// one (a CTA launched without a cluster) has a barrier its SM makes and uses alone.
#include <cstdint>
#include <memory>
#include <vector>

#include "sim/remote_shared.h"

namespace sassim::sim {

// An SM holding CTAs of a cluster: what the SM-to-SM network delivers to it.
class ClusterBarrierMember {
 public:
  virtual ~ClusterBarrierMember() = default;
  // The phase the CTA in `cta_slot` waits for completed at `cycle`: its waiting warps
  // resume at `resume_cycle` (> cycle).
  virtual void cluster_barrier_completed(std::uint32_t cta_slot, std::uint64_t cycle,
                                         std::uint64_t resume_cycle) = 0;
  // A TMA multicast load of another CTA of the cluster (sim/cluster_multicast.cc) will write
  // `bytes` into the shared memory of the CTA in `cta_slot`, completing on its mbarrier
  // at shared offset `barrier`: issued now.
  virtual void multicast_issued(std::uint32_t /*cta_slot*/, std::uint64_t /*barrier*/,
                                std::uint64_t /*bytes*/) {}
  // Multicast data or a distributed shared memory access from an SM of the cluster
  // reaches this SM's shared memory at access.at (later than the sender's cycle).
  virtual void remote_shared_arrives(const RemoteSharedAccess& /*access*/) {}
  // The reply to this SM's distributed shared memory access `token` (its sequence
  // number `seq`) reaches it at `cycle` (later than the replying SM's cycle).
  virtual void dsmem_replied(std::uint64_t /*seq*/, std::uint32_t /*token*/,
                             std::uint64_t /*cycle*/) {}
};

class ClusterBarrier {
 public:
  explicit ClusterBarrier(std::uint32_t latency_cycles)
      : latency_(latency_cycles < 1 ? 1 : latency_cycles) {}

  // A CTA of the cluster (of rank `rank`) with `warps` warps that have not exited
  // became resident.
  void join(ClusterBarrierMember& sm, std::uint32_t cta_slot, std::uint32_t warps,
            std::uint32_t rank = 0);
  // The CTA retired (all its warps exited before).
  void leave(const ClusterBarrierMember& sm, std::uint32_t cta_slot);
  // A warp arrives at `cycle`; returns the phase it arrived in.
  std::uint64_t arrive(std::uint64_t cycle);
  // A warp of the cluster exited at `cycle`: the barrier expects one warp fewer, from
  // the next phase on if the warp had arrived in the current one.
  void warp_exited(std::uint64_t cycle, bool arrived_in_current_phase);
  bool completed(std::uint64_t phase) const { return phase < phase_; }
  // The cycle the warps waiting for `phase` (completed) may resume.
  std::uint64_t resume_cycle(std::uint64_t phase) const {
    return phase + 1 == phase_ ? resume_ : 0;
  }

  struct Member {
    ClusterBarrierMember* sm;
    std::uint32_t cta_slot;
    std::uint32_t rank = 0;
  };
  // The resident CTA of cluster rank `rank`; null when it is not resident.
  const Member* member(std::uint32_t rank) const {
    for (const Member& m : members_) {
      if (m.rank == rank) return &m;
    }
    return nullptr;
  }

 private:
  void complete_if_all_arrived(std::uint64_t cycle);

  std::uint32_t latency_;
  std::vector<Member> members_;  // in join order
  std::uint32_t expected_ = 0;   // warps of the members that have not exited
  std::uint32_t arrived_ = 0;    // in the current phase
  std::uint32_t leaving_ = 0;    // warps that arrived in the current phase, then exited
  std::uint64_t phase_ = 0;      // phases completed so far
  std::uint64_t resume_ = 0;     // resume cycle of the last completed phase
};

// What a CTA of a cluster knows of its cluster (sim/cta_scheduler.h places them).
struct ClusterMembership {
  std::shared_ptr<ClusterBarrier> barrier;  // null: the CTA is not part of a cluster
  std::uint64_t cluster_id = 0;             // linear index of the cluster in the grid
  std::uint32_t rank = 0;                   // the CTA's rank in it (%cluster_ctarank)
};

}  // namespace sassim::sim
