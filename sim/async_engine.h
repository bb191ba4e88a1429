#pragma once
// The SM's side of asynchronous copies (docs/MODEL.md, "TMA, bulk copies and
// mbarriers"): what a UTMALDG / UTMASTG / UTMAREDG / UTMAPF / UBLKCP / UBLKRED line asks of
// the TMA engine (memsys/tma_engine.h), the stage its copy spends address generation in
// before the engine takes it, and the CTAs' mbarriers (sim/mbarrier.h). The SM keeps
// what a copy means to its warps (its token in the LSU's table, sim/lsu.h; bulk groups,
// sim/bulk_groups.h; the cluster, sim/cluster_endpoint.h).
#include <cstdint>
#include <vector>

#include "configs/sassim_config.pb.h"
#include "ground/timed_queue.h"
#include "ground/unit.h"
#include "isa/opcode.h"
#include "memsys/sm_memory_port.h"
#include "sim/mbarrier.h"

namespace sassim::sim {

// Whether the operation is a copy for the TMA engine, and which.
bool is_tma_copy(isa::AsyncOp op);
memsys::TmaKind tma_kind(isa::AsyncOp op);
// Stores and reductions to global memory: they join the warp's bulk async-group.
bool writes_global(isa::AsyncOp op);

class AsyncEngine {
 public:
  AsyncEngine(const config::GpuConfig& config, Clock core);

  Mbarriers& mbarriers() { return mbarriers_; }

  // The copy of memory token `token` enters address generation, for `latency` cycles
  // from `now`; the caller fills in what it moves (token and ack token are set).
  memsys::TmaCopy& stage(std::uint32_t token, std::uint32_t ack_token, Picos now,
                         std::uint64_t latency);
  // Copies whose address generation is done go to the port's TMA engine; true when one
  // went. A port without an engine takes none: each completes at once, completed(token)
  // called for it and then, when it has one, for its ack token.
  template <class Completed>
  bool submit(Picos now, memsys::SmMemoryPort& port, Completed completed) {
    bool progress = false;
    while (stage_.ready(now)) {
      const std::uint32_t token = stage_.pop();
      progress = true;
      const memsys::TmaCopy& copy = copies_[token];
      if (port.submit_tma(copy, now)) continue;
      const std::uint32_t ack_token = copy.ack_token;  // completing may reuse the slot
      completed(token);
      if (ack_token != memsys::kNoAckToken) completed(ack_token);
    }
    return progress;
  }
  Picos next_submit_ps() const { return stage_.front_ready_ps(); }

 private:
  Clock clock_;
  TimedQueue<std::uint32_t> stage_;      // tokens, in address generation
  std::vector<memsys::TmaCopy> copies_;  // by token, while staged
  Mbarriers mbarriers_;
};

}  // namespace sassim::sim
