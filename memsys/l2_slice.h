#pragma once
// One L2 slice (L2 clock domain, "gpu.l2.slice[j]"): a sectored, set-associative,
// write-back, write-allocate cache of size_bytes / slices with LRU, MSHRs that merge
// misses to a line, and the atomics of its lines.
//
// Timing: a request is looked up at the first L2 edge it is visible (tS). A hit's
// response is visible to the interconnect hit_latency_cycles later (tS + hit * T).
// A miss sends the missing sectors to the line's DRAM channel in the lookup edge
// (DRAM latency counts from that edge); when the fill is visible (the first L2 edge
// at or after its DRAM ready time) the waiting requests complete and their responses
// take the hit pipeline like a hit, so an unloaded miss costs a hit plus latency_ns
// rounded up to an L2 edge.
// A read miss fetches the aligned l2.fetch_granularity_bytes block around each missing
// sector, less what is valid or already on its way; the extra sectors become valid with
// the fill.
// Writes need no response: a fully written sector becomes valid and dirty, a partly
// written one dirty (its other bytes stay unknown, so a later read of it misses;
// no DRAM read is made for a write). Evicted dirty sectors are written back.
// Atomics and reductions read their sectors (a miss fetches them from DRAM) and write
// them back dirty when all are valid; an atomic's response takes the hit pipeline.
// A write or reduction with MemRequest::acknowledge (TMA stores and reductions) is
// answered without data through the same pipeline: a write at its lookup edge + hit
// latency, a reduction when it executes (like an atomic).
// With l2.merge_queued_reads, a read that hits answers, in the same edge and without
// lookups or bandwidth of their own, the later reads of its line already visible in
// the request queue (they leave the queue when they reach its head); and the reads a
// fill completes share one read-out of the sectors they have in common.
// Bandwidth: slice_bytes_per_cycle bounds the data the slice reads out for responses
// and takes in for writes and atomics (a byte credit); fills and writebacks are not
// charged. With l2.partial_write_read_modify_write a sector written only in part is
// charged for a read and a write-back of whole cycles each. Far requests passing through
// the slice on their way to another partition's home slice (pass_through) take its
// bandwidth too, for their sectors once (the merge happens at the home slice).
// With interconnect.near_slice_serves_far_reads (L2HomeLinks given), a read of a line
// homed in another slice is its partition's copy: a miss fetches the missing blocks
// from the home slice (a MemRequest::from_slice pushed into that slice's request link,
// L2HomeLinks::latency_ps later) instead of DRAM, and the fill (the home's response, into
// this slice's fills) completes its waiters at once: their data has already been
// through the home slice's hit pipeline. A request
// blocked on full MSHRs waits at the head. Requests for DRAM wait in a small outbox per channel of
// the slice (bounded by what the MSHRs and writebacks can produce) until that channel's queue has
// room, so one full channel never blocks misses to the slice's other channels.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "configs/sassim_config.pb.h"
#include "ground/byte_credit.h"
#include "ground/delay_line.h"
#include "ground/link.h"
#include "ground/ring_buffer.h"
#include "ground/unit.h"
#include "memsys/address_map.h"
#include "memsys/mem_packet.h"
#include "memsys/mshr_table.h"
#include "memsys/sector_cache.h"

namespace sassim::memsys {

// The request links of the home slices (interconnect.near_slice_serves_far_reads):
// every slice's, by index, and the one-way latency of the link between the
// partitions. Empty: every read is served from this slice's own lines or DRAM.
struct L2HomeLinks {
  std::span<Link<MemRequest>* const> slices;
  Picos latency_ps = 0;
};

class L2Slice final : public ClockedUnit {
 public:
  // channels: the request link of every DRAM channel, indexed by channel.
  L2Slice(std::uint32_t index, const config::L2Config& config, Clock clock, const AddressMap& map,
          Link<MemRequest>& in, Link<DramResponse>& fills, Link<MemResponse>& out,
          std::span<Link<DramRequest>* const> channels, Doorbell& inbox, L2HomeLinks homes = {});

  bool tick(std::uint64_t cycle, Picos now) override;
  Picos next_event_ps() const override { return std::min(inbox_.earliest_ps(), next_ps_); }
  bool busy() const override;
  const std::string& name() const override { return name_; }
  std::string describe_state() const override;
  void report(StatSink& sink) const override;

  // Makes sectors of a line valid and clean (a host-to-device copy); used between
  // kernels, not while ticking. A dirty victim is dropped without a writeback.
  void install_clean(std::uint64_t line, std::uint32_t sectors);
  // An access of work that sampling skipped (sim/cta_warmup.h), functional: the sectors
  // become valid (reads fetch as a miss would, in fetch blocks; writes validate their
  // full sectors) and dirty when written, the line most recently used. No time passes,
  // nothing is counted, and a dirty victim is dropped (its write-back is in the sampled
  // rate). A line waiting on a fill, or whose victim waits on one, is left alone.
  void warm(std::uint64_t line, std::uint32_t sectors, std::uint32_t full_sectors, bool write);
  // Drops every line (the slice must be idle).
  void flush() { cache_.set_active_ways(cache_.ways(), true); }
  const SectorCache& cache() const { return cache_; }

  // Copies of lines homed in a slice of another L2 partition
  // (interconnect.replicate_far_reads; the interconnect calls these when it routes).
  // True (and the copy becomes most recently used) when the copy holds every sector.
  bool replica_holds(std::uint64_t line, std::uint32_t sectors);
  // Adds sectors to the copy, allocating it unless the victim would be dirty or waits
  // on a miss (then no copy is made).
  void install_replica(std::uint64_t line, std::uint32_t sectors);
  void drop_replica(std::uint64_t line) { cache_.erase(line); }
  // A far request the copy does not serve passes through this slice at `now` (any
  // clock's edge): its data takes this slice's bandwidth as it would the home slice's.
  void pass_through(const MemRequest& request, Picos now);

  struct Stats {
    std::uint64_t sector_accesses = 0;
    std::uint64_t sector_hits = 0;
    std::uint64_t sector_misses = 0;
    std::uint64_t writebacks = 0;       // dirty sectors written back to DRAM
    std::uint64_t atomics = 0;          // atomic and reduction requests executed here
    std::uint64_t merged_reads = 0;     // reads answered while queued (l2.merge_queued_reads)
    std::uint64_t passed_sectors = 0;   // sectors of far requests passing through
    std::uint64_t fetched_sectors = 0;  // sectors fetched from far lines' home slices
  };
  const Stats& stats() const { return stats_; }

 private:
  struct Waiter {
    std::uint32_t pending = 0;  // sectors still to arrive
    std::uint32_t mask = 0;     // sectors of the request
    std::uint32_t tag = 0;
    std::uint16_t sm = 0;
    ReqKind kind = ReqKind::kRead;
    bool acknowledge = false;  // a reduction answered without data
    bool from_slice = false;   // MemRequest::from_slice
    FarRead far{};             // MemRequest::far
  };
  enum class Block : std::uint8_t { kNone, kBandwidth, kMshr, kDram };

  Block handle_request(const MemRequest& request, Picos now);
  // With l2.merge_queued_reads: answers the reads of line waiting behind the head of
  // the request queue whose sectors are all in `valid`, up to the first request of
  // the line that is not a read, within l2.merge_window_entries of the head.
  void answer_queued_reads(std::uint64_t line, std::uint32_t valid, Picos now);
  Block handle_fill(const DramResponse& fill, Picos now);
  // Checks that allocating line could write back its victim now.
  bool can_allocate(std::uint64_t line) const;
  SectorCache::Line& allocate(std::uint64_t line, Picos now);
  // hand_on: the data of a far line's fill, which has been through its home slice's hit
  // pipeline, leaves at once (handed_on_) instead of through this slice's. charged: the
  // sectors whose read-out (or write) it takes from the slice's bandwidth.
  void complete(const Waiter& waiter, std::uint64_t line, SectorCache::Line* cached, Picos now,
                bool hand_on, std::uint32_t charged);
  // A line homed in another slice (a far line's copy; only with L2HomeLinks).
  bool far_line(std::uint64_t line) const {
    return !homes_.slices.empty() && map_.slice_of(line) != index_;
  }
  // Fetches sectors of a far line for MSHR entry from its home slice.
  void fetch_from_home(std::uint64_t line, std::uint32_t sectors, std::uint32_t entry, Picos now);
  bool drain_home_fetches(Picos now);
  // DRAM requests go out through per-channel outboxes.
  bool can_send(std::uint64_t line) const {
    return outboxes_[map_.channel_slot(index_, line)].size() < outbox_capacity_;
  }
  void send(DramRequest request, Picos now);
  bool drain_outboxes(Picos now);
  std::uint64_t data_bytes(std::uint32_t mask) const;
  // The sectors of the l2.fetch_granularity_bytes blocks holding the sectors of mask.
  std::uint32_t fetch_blocks(std::uint32_t mask) const;
  // The data-array bytes a request takes (a write's partial sectors twice with
  // l2.partial_write_read_modify_write).
  std::uint64_t request_cost(const MemRequest& request) const;
  Picos wait_time(Block block, Picos now) const;

  std::string name_;
  std::uint32_t index_;
  Clock clock_;
  const AddressMap& map_;
  std::uint32_t sector_bytes_;
  std::uint32_t block_sectors_;  // sectors per l2.fetch_granularity_bytes block (>= 1)
  bool merge_queued_reads_;
  std::uint32_t merge_window_;  // l2.merge_window_entries (0: the whole queue)
  bool partial_write_rmw_;
  Picos hit_pipeline_ps_;  // (hit_latency_cycles - 1) periods; the hand-over adds the last
  SectorCache cache_;
  MshrTable<Waiter> mshrs_;
  DelayLine<MemResponse> pipeline_;
  DelayLine<MemResponse> handed_on_;  // far lines' fills, leaving at once
  ByteCredit bandwidth_;
  Link<MemRequest>& in_;
  Link<DramResponse>& fills_;
  Link<MemResponse>& out_;
  std::span<Link<DramRequest>* const> channels_;
  std::span<const std::uint32_t> my_channels_;     // this slice's channels, by slot
  std::vector<RingBuffer<DramRequest>> outboxes_;  // by slot
  std::size_t outbox_capacity_;
  std::size_t outbox_requests_ = 0;
  Doorbell& inbox_;
  L2HomeLinks homes_;
  RingBuffer<MemRequest> home_fetches_;  // waiting for room in their home slice's queue
  Picos next_ps_ = kNever;
  Block request_block_ = Block::kNone;
  Block fill_block_ = Block::kNone;
  Stats stats_;
};

}  // namespace sassim::memsys
