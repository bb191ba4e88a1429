#pragma once
// The tensor memory accelerator of one SM (Hopper TMA and bulk copies: UTMALDG,
// UBLKCP, UTMASTG, UTMAREDG, UBLKRED, UTMAPF). One thread issues a copy of many bytes; the engine
// splits it into line requests to the L2 (the path of L1 misses, bypassing the L1 cache) and, for
// loads, writes the returning data into shared memory. The SM side (the mbarrier the copy completes
// on) is not here: the engine reports the completion time of each copy through
// TmaNeighbours::complete.
//
// Timing (T = core period; a copy submitted at edge tc):
// - Its first request leaves at tc + setup_latency_cycles T. The engine sends one
//   request per line the copy touches, for the sectors it needs there, at
//   bytes_per_cycle (a byte credit, memsys/byte_credit.h): request i of a back-to-back
//   stream leaves floor(B_i / bytes_per_cycle) cycles after the first, B_i the bytes of
//   the requests before it (when the neighbour refuses a request, it is retried the
//   next cycle).
//   Copies are served in submission order.
// - Load (global -> shared): each sector's response, taken at edge tR, is written into
//   shared memory; the write takes write_shared(sector_bytes) cycles beyond tR. The
//   copy completes when its last sector is written.
// - Store (shared -> global) and reduction (UTMAREDG, UBLKRED: reduction requests the
//   L2 executes as read-modify-write): each sector is read from shared memory
//   (read_shared) before its request leaves; the copy completes (its token) in the
//   cycle its last request is sent, when its source has been read (as L1 stores do).
//   With an ack_token the requests ask the L2 for an acknowledgement, and the
//   ack_token completes at the edge the last acknowledgement is taken.
// - Shared copy (UBLKCP.S.S, UBLKRED.S.S: shared -> another CTA's shared memory): each
//   sector is read from shared memory at the same rate, nothing goes to the L2; the copy
//   completes in the cycle its last sector is read (the SM sends the data on).
// - Prefetch (UTMAPF, UBLKPF): read requests whose responses are dropped; the copy
//   completes when its last request is sent (nothing waits on it).
// Requests carry tags with kTmaTagBit set, so a unit sharing its port with the
// L1 can route responses back here.
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "configs/sassim_config.pb.h"
#include "ground/byte_credit.h"
#include "ground/unit.h"
#include "memsys/mem_packet.h"
#include "memsys/sm_memory_port.h"

namespace sassim::memsys {

inline constexpr std::uint32_t kTmaTagBit = 0x8000'0000u;

// What the engine talks to: the interconnect port and the shared-memory data path.
class TmaNeighbours {
 public:
  virtual ~TmaNeighbours() = default;
  // Sends a request at edge now; false when the port is full (retried next cycle).
  virtual bool send(const MemRequest& request, Picos now) = 0;
  // Charges `bytes` to the shared-memory data path at edge now; returns the core
  // cycles the transfer occupies beyond the current one.
  virtual std::uint64_t write_shared(std::uint32_t bytes, Picos now) = 0;
  virtual std::uint64_t read_shared(std::uint32_t bytes, Picos now) = 0;
  // The copy `token` completed at time done_ps (>= the current edge).
  virtual void complete(std::uint32_t token, Picos done_ps) = 0;
};

class TmaEngine {
 public:
  TmaEngine(std::uint16_t sm, const config::TmaConfig& config, std::uint32_t line_bytes,
            std::uint32_t sector_bytes, Clock clock, TmaNeighbours& neighbours);

  void submit(const TmaCopy& copy, Picos now);
  // A response to one of the engine's requests (its tag has kTmaTagBit), taken at edge now.
  void take_response(const MemResponse& response, Picos now);
  // Sends what is due at edge now; true when anything moved.
  bool tick(Picos now);
  // Earliest edge at which tick() can send; kNever when nothing is waiting to be sent.
  Picos next_event_ps() const;
  bool busy() const { return !queue_.empty() || in_flight_ > 0; }
  std::uint32_t copies_in_flight() const { return in_flight_; }

  struct Stats {
    std::uint64_t copies = 0;
    std::uint64_t read_sectors = 0;   // sectors of load and prefetch requests
    std::uint64_t write_sectors = 0;  // sectors of store requests
    std::uint64_t reduction_sectors = 0;
    std::uint64_t shared_sectors = 0;  // source sectors of shared::cluster copies
  };
  const Stats& stats() const { return stats_; }

 private:
  struct Copy {
    std::uint32_t token = 0;
    TmaKind kind = TmaKind::kLoad;
    Picos start_ps = 0;                  // setup done: first request may leave
    std::vector<std::uint64_t> sectors;  // global sector indices, in order
    std::size_t next = 0;                // sectors sent
    std::uint32_t pending = 0;           // load sectors not yet written to shared
    std::uint32_t ack_token = kNoAckToken;
    std::uint32_t unacked = 0;  // store / reduction requests not yet acknowledged
    Picos done_ps = 0;          // latest sector write (load) or read (store) seen so far
  };

  // The copy's token (loads, prefetches, the source read of stores), then its
  // ack_token: the copy is in flight until both were handed back.
  void finish(std::uint32_t slot, Picos done_ps);
  void finish_acks(std::uint32_t slot, Picos done_ps);
  // True when the slot's copy has nothing left in flight (its slot can be reused).
  bool drained(const Copy& c) const {
    return c.next == c.sectors.size() && c.pending == 0 && c.unacked == 0;
  }
  std::uint32_t acquire_slot();

  std::uint16_t sm_;
  Clock clock_;
  std::uint32_t setup_cycles_;
  std::uint32_t line_bytes_;
  std::uint32_t sector_bytes_;
  ByteCredit issue_;
  TmaNeighbours& neighbours_;
  std::vector<Copy> copies_;         // by slot
  std::vector<std::uint32_t> free_;  // free slots
  std::deque<std::uint32_t> queue_;  // slots with requests still to send, in order
  std::uint32_t in_flight_ = 0;      // copies not completed
  bool blocked_ = false;             // the last tick's request was refused
  Picos last_tick_ps_ = 0;
  Stats stats_;
};

}  // namespace sassim::memsys
