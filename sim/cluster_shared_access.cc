// Distributed shared memory accesses (the sending SM's side) and the accesses of other
// SMs of the cluster to this SM's shared memory: TMA multicast data and shared::cluster
// bulk copies (sim/cluster_multicast.cc), distributed shared memory accesses
// (sim/sm_dsmem.cc) and arrivals on its mbarriers. An arrival takes no data path and
// acts in the cycle it reaches the SM; the others take the SM's shared data path (SmMemoryPort::
// remote_shared_access: the byte credit of the SM's own shared and L1 accesses,
// l1.data_bytes_per_cycle) for its bytes in the cycle it arrives, after that cycle's own
// accesses, or from the cycle the data path has credit again when earlier traffic still
// holds it. Multicast data then completes its bytes on the receiving CTA's mbarrier (a
// shared::cluster bulk copy once its bytes have passed the data path); a distributed
// shared memory access is answered over the SM-to-SM network (sim/sm_network.h). Taken
// in the receiving SM's tick in (cycle, sending SM, sequence) order, so the result does
// not depend on the order SMs are ticked in.
#include <algorithm>
#include <limits>

#include "sim/cluster_endpoint.h"

namespace sassim::sim {
namespace {

std::uint32_t port_bytes(std::uint64_t bytes) {
  return static_cast<std::uint32_t>(
      std::min<std::uint64_t>(bytes, std::numeric_limits<std::uint32_t>::max()));
}

}  // namespace

void ClusterEndpoint::send_dsmem(const ClusterBarrier* cluster, std::uint32_t rank,
                                 std::uint32_t token, std::uint64_t bytes, std::uint64_t cycle) {
  const std::uint64_t left = cross_port(cycle, bytes);
  const std::uint64_t seq = next_seq();
  const ClusterBarrier::Member* target = cluster != nullptr ? cluster->member(rank) : nullptr;
  net::DsmemRequest request{target != nullptr ? target->sm : nullptr, left, {}};
  RemoteSharedAccess& a = request.access;
  a.from_sm = sm_;
  a.seq = seq;
  a.bytes = bytes;
  a.sender = this;
  a.token = token;
  send(request);
}

void ClusterEndpoint::send_arrive(const ClusterBarrier& cluster, std::uint32_t rank,
                                  std::uint64_t barrier, std::uint32_t arrivals,
                                  std::uint64_t cycle) {
  const ClusterBarrier::Member* target = cluster.member(rank);
  if (target == nullptr) return;  // the CTA is not resident: nothing waits on it
  if (target->sm == this) {
    listener_.remote_arrived(target->cta_slot, barrier, arrivals, cycle);
    return;
  }
  net::SharedWrite write{target->sm, cycle, {}};
  RemoteSharedAccess& a = write.access;
  a.from_sm = sm_;
  a.seq = next_seq();
  a.arrive = true;
  a.arrivals = arrivals;
  a.barrier = MbarrierKey{target->cta_slot, barrier};
  send(write);
}

bool ClusterEndpoint::deliver_remote_shared(std::uint64_t cycle, Picos now,
                                            memsys::SmMemoryPort& port) {
  bool progress = false;
  while (!remote_.empty() && remote_.front().at <= cycle) {
    RemoteSharedAccess a = remote_.front();
    remote_.erase(remote_.begin());
    progress = true;
    if (a.arrive) {
      listener_.remote_arrived(a.barrier.cta_slot, a.barrier.offset, a.arrivals, cycle);
      continue;
    }
    if (!a.written && a.bulk_copy) {
      const std::uint64_t done = port.remote_shared_write(port_bytes(a.path_bytes), now);
      if (done > 0) {  // complete once the write has passed the data path
        a.written = true;
        a.at = cycle + done;
        insert_remote_shared(remote_, a);
        continue;
      }
    } else if (!a.written) {
      const std::uint64_t wait = port.remote_shared_access(port_bytes(a.bytes), now);
      if (a.sender != nullptr) {
        send(net::DsmemAnswer{a.sender, a.seq, a.token, cycle + wait});
        continue;
      }
      if (wait > 0) {  // written when the data path takes it
        a.written = true;
        a.at = cycle + wait;
        insert_remote_shared(remote_, a);
        continue;
      }
    }
    listener_.tx_completed(a.barrier.cta_slot, a.barrier.offset, a.bytes, cycle);
  }
  return progress;
}

}  // namespace sassim::sim
