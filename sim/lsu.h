#pragma once
// The front of an SM's load/store path (docs/MODEL.md, "SM", LSU instruction queue): each
// sub-core's LSU instruction queue (sm.mio_queue), the address stage the memory pipes
// feed, and the table of the SM's memory accesses and copies in flight, by token.
//
// A memory instruction the warp scheduler issues enters its sub-core's queue (one per
// cycle); the sub-core's memory pipe takes the queue's front at its initiation interval
// when the address stage has room, and the access leaves the stage after the pipe's
// latency (no earlier than its operand reads allow) for the L1 port, or for the SM-to-SM
// network when it addresses another CTA's shared memory. Shared-memory instructions may
// fill a queue; global and local ones stop at sm.mio_queue.global_local_entries, so that
// shared-memory work keeps flowing while the global pipe is backed up. Asynchronous
// copies, and every memory instruction when sm.mio_queue.entries is 0, enter the
// address stage directly. The queues hand over round robin, from the sub-core after the
// last one served.
#include <cstdint>
#include <vector>

#include "configs/sassim_config.pb.h"
#include "ground/ring_buffer.h"
#include "ground/timed_queue.h"
#include "ground/unit.h"
#include "isa/opcode.h"
#include "memsys/sm_memory_port.h"
#include "sim/sm_pending_access.h"

namespace sassim::sim {

class Lsu {
 public:
  // Where accesses to another CTA's shared memory leave the address stage for.
  class DsmemSender {
   public:
    virtual ~DsmemSender() = default;
    virtual void send_dsmem(const memsys::WarpMemAccess& access, Picos now) = 0;
  };

  Lsu(const config::GpuConfig& config, Clock core);

  // The token table: a token names a PendingAccess until it is released.
  std::uint32_t acquire_token() {
    if (free_tokens_.empty()) {
      pending_.emplace_back();
      return static_cast<std::uint32_t>(pending_.size() - 1);
    }
    const std::uint32_t token = free_tokens_.back();
    free_tokens_.pop_back();
    return token;
  }
  void release_token(std::uint32_t token) { free_tokens_.push_back(token); }
  // The reference is valid until the next acquire_token.
  PendingAccess& pending(std::uint32_t token) { return pending_[token]; }
  const PendingAccess& pending(std::uint32_t token) const { return pending_[token]; }

  // Whether the instruction goes through its sub-core's LSU queue.
  bool queued(const isa::StaticInst& si) const {
    return queue_entries_ != 0 && si.op.async == isa::AsyncOp::kNone;
  }
  // Whether a memory instruction of sub-core `sub` must wait for room: in the queue, or
  // in the address stage for those that bypass it.
  bool path_full(std::size_t sub, const isa::StaticInst& si) const {
    if (!queued(si)) return address_stage_.full();
    return queues_[sub].entries.size() >=
           (si.op.space == isa::MemSpace::kShared ? queue_entries_ : global_entries_);
  }
  // The access enters address generation: it leaves the stage at `ready`, or `latency`
  // cycles after its sub-core's pipe takes it from the queue (at the pipe's `interval`),
  // whichever is later. Call only when !path_full(sub, si).
  void enter(std::size_t sub, const isa::StaticInst& si, const memsys::WarpMemAccess& access,
             Picos now, Picos ready, std::uint64_t latency, std::uint64_t interval);

  bool has_queues() const { return queue_entries_ != 0; }
  // Hands queued instructions to the address stage (at most one per sub-core); true when
  // one moved. Updates next_drain_ps().
  bool drain_queues(std::uint64_t cycle, Picos now);
  // When a queue can next hand over (kNever: none, or the stage is full and its front
  // leaving wakes the SM), as of the last drain_queues.
  Picos next_drain_ps() const { return next_drain_ps_; }
  // Accesses whose address generation is done leave for the port (while it accepts
  // them) or the network; true when one left.
  bool submit(Picos now, memsys::SmMemoryPort& port, DsmemSender& dsmem);
  Picos next_submit_ps() const { return address_stage_.front_ready_ps(); }

  bool stage_full() const { return address_stage_.full(); }
  std::size_t queue_size(std::size_t sub) const { return queues_[sub].entries.size(); }

 private:
  struct Queued {
    memsys::WarpMemAccess access;
    Picos ready_floor = 0;      // leaves address generation no earlier (operand reads)
    std::uint64_t latency = 0;  // address generation, from the pipe taking it
    std::uint64_t interval = 1;
  };
  struct Queue {
    RingBuffer<Queued> entries;
    std::uint64_t pipe_free = 0;  // the cycle the sub-core's pipe takes the next one
  };

  Picos compute_next_drain() const;

  Clock clock_;
  // sm.mio_queue: entries per sub-core (0: no queue) and the global/local watermark.
  std::uint32_t queue_entries_ = 0, global_entries_ = 0;
  std::vector<Queue> queues_;    // by sub-core
  std::size_t drain_first_ = 0;  // the sub-core whose queue goes first next
  Picos next_drain_ps_ = kNever;
  // Memory instructions spend the memory pipe's latency here before entering the memory
  // system (and wait here while it refuses them).
  TimedQueue<memsys::WarpMemAccess> address_stage_;
  std::vector<PendingAccess> pending_;  // by token
  std::vector<std::uint32_t> free_tokens_;
};

}  // namespace sassim::sim
