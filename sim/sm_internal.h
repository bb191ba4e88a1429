#pragma once
// The SM's private per-CTA, per-access and per-sub-core state, shared by the files
// that implement Sm (sm.cc: CTAs, issue, barriers; sm_memory.cc: the memory path;
// sm_warp_states.cc: where warp cycles go). Not for use outside the SM.
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "ground/ring_buffer.h"
#include "sim/barriers.h"
#include "sim/sm.h"

namespace sassim::sim {

struct Sm::CtaSlot {
  bool used = false;
  const KernelContext* kernel = nullptr;
  traces::CtaTrace trace;
  CtaResources resources;
  std::vector<unsigned> warp_slots;
  std::uint32_t active_warps = 0;  // warps with instructions left (can reach a barrier)
  CtaBarriers barriers;
  std::uint32_t finished_warps = 0;
  ClusterMembership cluster;
  // A CTA of a launched cluster, whose barrier the SM reaches over the SM-to-SM network
  // (false: a cluster of one, made by the SM); the phases of it the SM has seen
  // completed and the resume cycle of the last.
  bool networked = false;
  std::uint64_t cluster_phases = 0, cluster_resume = 0;
};

struct Sm::PendingAccess {
  unsigned slot = 0;
  bool async = false;
  bool dsmem = false;             // to another CTA's shared memory (sm_dsmem.cc)
  std::uint32_t dsmem_rank = 0;   // and that CTA's cluster rank
  std::uint64_t async_group = 0;  // async copies: the warp's group it belongs to
  std::uint8_t num_dst = 0;
  std::uint8_t write_sb = kNoScoreboard;  // control-bit mode: released on completion
  // TMA copies: the mbarrier a load completes on (when it names one) and its bytes.
  bool tma = false;
  bool tma_barrier = false;
  MbarrierKey barrier;
  std::uint64_t tma_bytes = 0;
  // TMA stores and reductions: the token of the source read (bulk) or of the write
  // acknowledgements (bulk_ack), the warp's bulk group, and the warp's age (an
  // acknowledgement may arrive after the warp exited and its slot was reused).
  // TMA multicast loads: the other cluster ranks whose shared memory it writes.
  std::uint32_t multicast = 0;
  // Shared::cluster bulk copies (sm_cluster_copy.cc): the destination CTA's rank; its
  // mbarrier's shared offset is barrier.offset.
  bool cluster_copy = false;
  bool cluster_reduce = false;
  std::uint32_t cluster_rank = 0;
  bool bulk = false;
  bool bulk_ack = false;
  bool write_ack = false;  // an ordinary store's acknowledgements (sm_memory.cc)
  std::uint64_t bulk_group = 0;
  std::uint64_t warp_age = 0;
  std::array<isa::RegRange, isa::kMaxDstRanges> dst{};
  // Ordinary accesses: the addresses, which the address stage's WarpMemAccess views.
  std::vector<std::uint64_t> addresses;
};

struct Sm::SubCore {
  std::unique_ptr<SchedulerPolicy> policy;
  std::vector<unsigned> slots;      // warp slots served by this sub-core, by local index
  std::vector<std::uint64_t> ages;  // launch order of the warp in each local slot
  std::array<std::uint64_t, isa::kNumUnitClasses> unit_free{};  // next cycle each pipe accepts
  // Control-bit mode: a warp whose instruction had the yield bit (bit of its local
  // slot) gives way to any other ready warp in cycle yield_cycle.
  std::uint64_t yield_mask = 0;
  std::uint64_t yield_cycle = kNeverCycle;
  // Register-bank conflicts: the sub-core issues nothing before dispatch_free; the warp
  // in slot dispatch_slot waits for its own delayed dispatch.
  std::uint64_t dispatch_free = 0;
  unsigned dispatch_slot = 0;
  // Warp-state accounting (sm_warp_states.cc), bits by local slot: warps to
  // reclassify; those whose state depends on this sub-core's pipes and dispatch (they
  // passed their ready cycle) or on the address stage's fullness; those the front end
  // holds; those that wait for an event (not running, or for a load).
  std::uint64_t reclassify = 0, depends_on_issue = 0, depends_on_address_stage = 0;
  std::uint64_t fetch_stalled = 0, blocked = ~std::uint64_t{0};
  // The LSU instruction queue (sm.mio_queue; sm_mio_queue.cc): memory instructions
  // issued but not yet taken by the sub-core's memory pipe, the cycle the pipe takes
  // the next one, and the queue's length when warp states were last decided.
  struct QueuedAccess {
    memsys::WarpMemAccess access;
    Picos ready_floor = 0;      // leaves address generation no earlier (operand reads)
    std::uint64_t latency = 0;  // address generation, from the pipe taking it
    std::uint64_t interval = 1;
  };
  RingBuffer<QueuedAccess> mio_queue;
  std::uint64_t mio_pipe_free = 0;
  std::size_t mio_queue_seen = 0;
  // By local slot: the cycle before which the warp's cached state holds unless an event
  // marks it (kNeverCycle for free slots).
  std::vector<std::uint64_t> state_until;
};

// A warp's state at a cycle, the cycle from which time alone may change it, and what
// else it depends on (sm_warp_states.cc).
struct Sm::WarpClass {
  WarpCycleState state;
  std::uint64_t until = kNeverCycle;
  std::uint8_t depends = 0;
};

}  // namespace sassim::sim
