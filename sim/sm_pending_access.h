#pragma once
// A memory access or copy of an SM in flight, by its token (sim/sm_memory.cc, sim/sm_tma.cc).
#include <array>
#include <cstdint>
#include <vector>

#include "isa/instruction.h"
#include "sim/mbarrier.h"
#include "sim/warp.h"

namespace sassim::sim {

struct PendingAccess {
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
  // Shared::cluster bulk copies (cluster_multicast.cc): the destination CTA's rank; its
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

}  // namespace sassim::sim
