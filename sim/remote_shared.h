#pragma once
// What crosses the GPC's SM-to-SM network (sim/sm_network.h) into another SM's shared
// memory (sm_90 clusters): TMA multicast data (sim/cluster_multicast.cc) and distributed
// shared memory accesses (sim/sm_dsmem.cc). The receiving SM takes them in its own tick, in the
// order of (cycle, sending SM, the sender's sequence number), so that the result does
// not depend on the order SMs are ticked in (sim/cluster_shared_access.cc).
#include <algorithm>
#include <cstdint>
#include <tuple>
#include <vector>

#include "sim/mbarrier.h"

namespace sassim::sim {

class ClusterBarrierMember;

struct RemoteSharedAccess {
  std::uint64_t at = 0;       // the cycle it reaches the receiving SM
  std::uint32_t from_sm = 0;  // the sending SM
  std::uint64_t seq = 0;      // the sender's count of accesses sent before it
  std::uint64_t bytes = 0;
  // A TMA multicast write: its bytes complete on this mbarrier of the receiving SM
  // once written; `written`: its data-path time is taken, it waits for its turn.
  bool multicast = false;
  bool written = false;
  MbarrierKey barrier;
  // A shared::cluster bulk copy (sim/cluster_multicast.cc), one kind of multicast write
  // above: it takes `path_bytes` of the data path and completes once they have passed.
  bool bulk_copy = false;
  std::uint64_t path_bytes = 0;
  // An arrive on the receiving CTA's mbarrier `barrier` from another CTA of the cluster
  // (mbarrier.arrive.shared::cluster, SYNCS.ARRIVE.TRANS64.RED): `arrivals` threads, no
  // data.
  bool arrive = false;
  std::uint32_t arrivals = 0;
  // A distributed shared memory access (null: multicast data): the sender gets its token
  // back over the SM-to-SM network (sim/sm_network.h) once the access was served.
  ClusterBarrierMember* sender = nullptr;
  std::uint32_t token = 0;
};

// A reply to a distributed shared memory access, due at the sender at `at`.
struct DsmemReply {
  std::uint64_t at = 0;
  std::uint64_t seq = 0;
  std::uint32_t token = 0;
};

// Inserts `a` into `queue`, kept in (at, from_sm, seq) order.
inline void insert_remote_shared(std::vector<RemoteSharedAccess>& queue,
                                 const RemoteSharedAccess& a) {
  const auto key = [](const RemoteSharedAccess& r) { return std::tie(r.at, r.from_sm, r.seq); };
  queue.insert(std::upper_bound(queue.begin(), queue.end(), a,
                                [&](const RemoteSharedAccess& x, const RemoteSharedAccess& y) {
                                  return key(x) < key(y);
                                }),
               a);
}

// Inserts `r` into `queue`, kept in (at, seq) order.
inline void insert_dsmem_reply(std::vector<DsmemReply>& queue, const DsmemReply& r) {
  queue.insert(std::upper_bound(queue.begin(), queue.end(), r,
                                [](const DsmemReply& x, const DsmemReply& y) {
                                  return std::tie(x.at, x.seq) < std::tie(y.at, y.seq);
                                }),
               r);
}

}  // namespace sassim::sim
