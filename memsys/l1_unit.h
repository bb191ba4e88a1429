#pragma once
// The L1 / shared memory unit of one SM (core clock domain, "gpu.sm[i].l1"): the
// LSU input queue, the shared memory banks, the coalescer, a sectored L1 data cache
// (write-through, no write-allocate, LRU), its MSHRs, and the SM's port to the
// interconnect. It is also the SM's SmMemoryPort.
//
// Timing (T = core period; an access submitted at edge tc):
// - The LSU sees it at the next edge, tc + T (its "lookup cycle" tL when unloaded).
//   Latencies count from the submit edge: the submit cycle is the LSU's first stage.
// - Shared: occupies the data path for `passes` cycles (bank conflicts) and completes
//   at tL + (shared_latency_cycles + passes - 2) T, i.e. shared_latency + passes - 1
//   cycles after submit when unloaded.
// - Global, local, constant, texture and generic (taken as global) loads and async
//   copies: coalesced into lines; tag_lookups_per_cycle lines are looked up per
//   cycle. Sectors that hit are read through the data path and are ready at
//   tL + (hit_latency_cycles - 1) T (hit_latency after submit when unloaded). Missing
//   sectors join the line's MSHR (merging with sectors already requested; a new
//   request is sent only for sectors not yet in flight; a load that bypasses the L1
//   merges only with l1.merge_bypass_reads, else it takes an MSHR of its own and sends
//   every sector it misses) and a read request leaves for
//   the interconnect in the lookup cycle, visible to it one core period later
//   (tc + 2T). A response is taken at the first edge it is visible (tR), filled into
//   the L1 (allocating, LRU), and its data reaches the registers after the rest of
//   the L1 pipeline, tR + (hit_latency_cycles - 2) T (and the data-path time): so the
//   L1 adds hit_latency_cycles to a miss, as to a hit, and with one clock an L2 hit
//   takes hit_latency + 2 x interconnect latency + L2 hit latency exactly. The access
//   completes when its last sector has arrived. With full MSHRs the access waits at
//   the head of the LSU queue (back-pressure; nothing is dropped).
// - Async copies (LDGSTS): as loads of their cache operator. LDGSTS.BYPASS
//   (cp.async.cg) neither hits nor allocates in the L1, and its data goes from the
//   response into shared memory in the response's data-path pass; the others are filled
//   into the L1 and then written into shared memory, one more data-path pass per 128
//   bytes after their data is back.
// - Shared memory accesses take a pipe of their own after the LSU input queue (the
//   "shared memory pipe"; global, local and async copies the "tagged pipe"), both in
//   order: a shared access never waits behind the tag lookups, MSHRs or interconnect
//   room of a global access submitted before it. The data path is shared.
// - Stores and reductions: write-through, one write request per line with the
//   written sectors (sectors present in the L1 stay valid: updated in place; nothing
//   is allocated unless l1.write_allocate, with which a cacheable store installs its
//   line and the sectors it completes); complete in the cycle their last request
//   enters the interconnect.
//   A store submitted with an ack_token asks the L2 to acknowledge each of its
//   requests; the ack_token completes at the edge the last acknowledgement is taken.
//   With l1.write_credit_sectors = N > 0 each request takes one credit per sector it
//   writes and asks the L2 for an acknowledgement; the credits return at the edge the
//   acknowledgement is taken, and a request that does not fit in the credits left
//   waits at the head of the LSU queue (back-pressure; one larger than N goes alone).
// - Atomics: one request per line, executed at the L2 (the L1's copies of those
//   sectors are invalidated); complete when every response is back.
// - The data path moves data_bytes_per_cycle (a byte credit shared by hits, fills,
//   shared passes, async-copy writes, wgmma operand reads and the accesses of other
//   SMs of the cluster); a response waits while it has no credit.
// - TMA / bulk copies (submit_tma) go to the unit's TmaEngine (memsys/tma_engine.h),
//   which shares the interconnect port and the data path; its responses bypass the L1.
// Completed tokens pop in completion-time order, ties in submission order.
#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <queue>
#include <string>
#include <unordered_map>
#include <vector>

#include "configs/sassim_config.pb.h"
#include "ground/byte_credit.h"
#include "ground/link.h"
#include "ground/timed_queue.h"
#include "ground/unit.h"
#include "memsys/bank_conflicts.h"
#include "memsys/coalescer.h"
#include "memsys/mem_packet.h"
#include "memsys/mshr_table.h"
#include "memsys/sector_cache.h"
#include "memsys/sm_memory_port.h"
#include "memsys/tma_engine.h"

namespace sassim::memsys {

class L1Unit final : public ClockedUnit, public SmMemoryPort {
 public:
  // data_cache_bytes: config::l1_data_bytes (the unified array less the carve-out);
  // max_data_cache_bytes: config::l1_max_data_bytes (less the smallest carve-out option).
  L1Unit(std::uint32_t sm, const config::L1Config& config, std::uint64_t data_cache_bytes,
         std::uint64_t max_data_cache_bytes, const config::TmaConfig& tma, Clock clock,
         Link<MemRequest>& to_noc, Link<MemResponse>& from_noc, Doorbell& inbox);

  bool submit_tma(const TmaCopy& copy, Picos now) override;
  void set_shared_carveout(std::uint32_t shared_bytes) override;
  void invalidate_l1_data() override {
    cache_.set_active_ways(cache_.ways(), true);
    partial_writes_.clear();
  }
  // Ways per set the L1 data cache uses now (it follows the shared-memory carve-out).
  std::uint32_t data_ways() const { return cache_.ways(); }
  const TmaEngine& tma() const { return tma_; }

  // SmMemoryPort
  bool acknowledges_writes() const override { return true; }
  bool can_accept(Picos now) const override;
  void submit(const WarpMemAccess& access, Picos now) override;
  std::optional<std::uint32_t> pop_completed(Picos now) override;
  Picos next_completion_ps() const override;
  std::uint32_t outstanding() const override { return outstanding_; }
  std::uint64_t read_tensor_operands(std::uint32_t bytes, Picos now) override;
  std::uint64_t remote_shared_access(std::uint32_t bytes, Picos now) override;
  std::uint64_t remote_shared_write(std::uint32_t bytes, Picos now) override;

  // ClockedUnit
  bool tick(std::uint64_t cycle, Picos now) override;
  Picos next_event_ps() const override { return std::min(inbox_.earliest_ps(), next_ps_); }
  bool busy() const override;
  const std::string& name() const override { return name_; }
  std::string describe_state() const override;
  void report(StatSink& sink) const override;

  struct Stats {
    std::uint64_t accesses = 0;         // warp instructions submitted
    std::uint64_t sector_accesses = 0;  // load / async-copy sectors looked up
    std::uint64_t sector_hits = 0;
    std::uint64_t sector_misses = 0;
    std::uint64_t store_sectors = 0;  // store and reduction sectors sent to the L2
    std::uint64_t shared_accesses = 0;
    std::uint64_t shared_bank_passes = 0;
    std::uint64_t mshr_full_stall_cycles = 0;     // cycles the LSU head waited for an MSHR
    std::uint64_t write_credit_stall_cycles = 0;  // cycles the LSU head waited for a credit
  };
  const Stats& stats() const { return stats_; }
  const SectorCache& cache() const { return cache_; }

 private:
  enum class Path : std::uint8_t { kShared, kLoad, kStore, kAtomic };
  enum class Block : std::uint8_t {
    kNone,
    kLookups,
    kDataPath,
    kMshr,
    kInterconnect,
    kWriteCredits
  };
  struct Slot {
    std::uint32_t token = 0;
    Path path = Path::kLoad;
    ReqKind store_kind = ReqKind::kWrite;
    bool async_copy = false;
    bool bypass = false;    // the access's cache operator bypasses the L1
    bool cacheable = true;  // false: a global load while l1.cache_global_loads is off
    isa::L1Policy policy = isa::L1Policy::kNormal;  // cache operator's replacement priority
    std::uint8_t bytes_per_thread = 4;
    std::uint32_t active_mask = 0;
    std::vector<std::uint64_t> addresses;
    CoalescedLines lines;
    std::uint32_t next_line = 0;          // lines issued so far
    bool issued = false;                  // every line issued (the access left the LSU queue)
    std::uint32_t pending = 0;            // sectors (loads) or responses (atomics) outstanding
    std::uint32_t ack_wait = kNoAckWait;  // stores with an ack_token: index into ack_waits_
    Picos ready_ps = 0;                   // when the data known so far is in the registers
    Picos submit_ps = 0;
    std::uint64_t seq = 0;
  };
  // Request tag of a write nobody waits for (below kTmaTagBit: not the TMA engine's).
  static constexpr std::uint32_t kNoAckWait = kTmaTagBit - 1;
  // A store's acknowledgements still to come (the slot is freed once the store is sent).
  struct AckWait {
    std::uint32_t token = 0;
    std::uint32_t remaining = 0;  // requests not yet acknowledged
    bool sent = false;            // every request has been sent
  };
  struct Waiter {
    std::uint32_t slot = 0;
    std::uint32_t mask = 0;  // sectors still to arrive
  };
  struct Completion {
    Picos time_ps = 0;
    std::uint64_t seq = 0;
    std::uint32_t token = 0;
    bool operator>(const Completion& o) const {
      return time_ps != o.time_ps ? time_ps > o.time_ps : seq > o.seq;
    }
  };

  std::uint32_t acquire_slot();
  void start(Slot& slot);
  Block advance(std::uint32_t index, Picos now, std::uint32_t& lookups);
  // Advances the heads of one pipe's queue until one blocks (returned) or none is ready.
  Block drain(TimedQueue<std::uint32_t>& pipe, Picos now, std::uint32_t& lookups, bool& progress);
  Block issue_load_line(std::uint32_t index, const LineAccess& line, Picos now);
  // A load's cache operator on a line it finds (hit or partial): LRU update, demotion
  // (evict-first, last use; last use also drops the sectors it read) or protection.
  void apply_hit_policy(SectorCache::Line& line, isa::L1Policy policy, std::uint32_t hit);
  // A load missing in `entry`: whether and with which priority the fill is installed.
  static void note_fill_policy(MshrTable<Waiter>::Entry& entry, bool cacheable,
                               isa::L1Policy policy);
  Block issue_store_line(std::uint32_t index, const LineAccess& line, Picos now);
  // l1.write_allocate: installs what a store writes (line: one of slot.lines.lines).
  void allocate_written(const Slot& slot, const LineAccess& line);
  // Installs line (LRU victim); neither it nor the victim keeps partly written bytes.
  SectorCache::Line& install(std::uint64_t line);
  Block issue_atomic_line(std::uint32_t index, const LineAccess& line, Picos now);
  void take_response(const MemResponse& response, Picos data_ready);
  void finish_if_done(std::uint32_t index);
  void take_acknowledgement(const MemResponse& response, Picos now);
  void note_stalls(Block block, Picos now);
  Picos compute_next(Picos now) const;
  Picos cycles(std::uint64_t n) const { return n * clock_.period_ps; }

  // The TMA engine's view of this unit: the interconnect port and the data path.
  class TmaPort final : public TmaNeighbours {
   public:
    explicit TmaPort(L1Unit& l1) : l1_(l1) {}
    bool send(const MemRequest& request, Picos now) override;
    std::uint64_t write_shared(std::uint32_t bytes, Picos now) override;
    std::uint64_t read_shared(std::uint32_t bytes, Picos now) override;
    void complete(std::uint32_t token, Picos done_ps) override;

   private:
    L1Unit& l1_;
  };

  std::string name_;
  std::uint16_t sm_;
  Clock clock_;
  LineGeometry geometry_;
  SharedBankGeometry banks_;
  std::uint32_t hit_latency_cycles_;
  std::uint32_t fill_latency_cycles_;  // response taken to data in registers: hit latency - 2
  std::uint32_t shared_latency_cycles_;
  std::uint32_t tag_lookups_per_cycle_;
  std::int64_t data_bytes_per_cycle_;
  std::uint32_t write_credits_;  // sectors; 0: writes unacknowledged, unlimited

  std::uint64_t unified_bytes_;
  SectorCache cache_;
  MshrTable<Waiter> mshrs_;
  ByteCredit data_path_;
  bool cache_global_loads_;
  bool merge_bypass_reads_;
  bool write_allocate_;
  // With write_allocate: bytes written to sectors of a cached line that are not valid
  // yet (a bit per byte of the line), by line.
  std::unordered_map<std::uint64_t, std::array<std::uint64_t, 16>> partial_writes_;
  // The LSU input queue (l1.lsu_queue_entries over both): the tagged pipe's accesses
  // (global, local, async copies) and the shared memory pipe's, slot indices in order.
  TimedQueue<std::uint32_t> lsu_;
  TimedQueue<std::uint32_t> shared_;
  std::vector<Slot> slots_;
  std::vector<std::uint32_t> free_slots_;
  std::vector<AckWait> ack_waits_;
  std::vector<std::uint32_t> free_ack_waits_;
  std::priority_queue<Completion, std::vector<Completion>, std::greater<>> completions_;
  Link<MemRequest>& to_noc_;
  Link<MemResponse>& from_noc_;
  Doorbell& inbox_;
  TmaPort tma_port_{*this};
  TmaEngine tma_;

  Picos now_ps_ = 0;  // edge of the last tick
  Picos next_ps_ = kNever;
  Block lsu_block_ = Block::kNone;
  Block shared_block_ = Block::kNone;
  Block response_block_ = Block::kNone;
  Picos mshr_stall_since_ = kNever;
  Picos credit_stall_since_ = kNever;
  std::uint32_t write_sectors_in_flight_ = 0;  // sectors written, not yet acknowledged
  std::uint64_t next_seq_ = 0;
  std::uint32_t outstanding_ = 0;
  std::uint32_t slots_in_use_ = 0;
  Stats stats_;
};

}  // namespace sassim::memsys
