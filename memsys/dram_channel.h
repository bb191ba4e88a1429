#pragma once
// One DRAM channel (DRAM clock domain, "gpu.dram.channel[k]"): banks in bank groups
// with an open-row policy, a bounded request queue scheduled FR-FCFS, and a data bus
// modelled in exact time. memsys/README.md ("DRAM") states the timing conventions.
//
// Requests leave the link from the slices into the scheduler's queue (queue_entries
// of them) when they are visible. Each request is one column access of its sectors
// (the bursts of one line go back to back) in the bank dram_address.h places it in.
//
// Rows: a bank keeps its row open. When no queued request hits a bank's open row, the
// oldest request for that bank opens its own: PRE (a conflict: not before ACT + tRAS,
// the end of the last write's data + tWR, or the last column command) then ACT tRP
// later, or just ACT when the bank is closed (a miss), not before the request reached
// the channel; its columns may go tRCD after ACT. So row hits are served before older
// misses of the same bank (first ready), and among requests whose row is open the one
// whose column command can go first goes first, the oldest on a tie.
//
// Column command times (exact picoseconds): not before the request reached the
// channel, its row's ACT + tRCD, the previous column command + tCCD_S (+ tCCD_L in
// the same bank group), the last read's command + tRTW (writes) or the end of the last
// write's data + tWTR (reads). Data starts tCL (reads) or tWL (writes) after the
// command, but not before the bus is free, and holds the bus for bytes /
// (bus_width_bits / 8 x data_rate) seconds kept as picoseconds plus an exact
// remainder, so the peak is exactly channels x bus_width_bits / 8 x data_rate_mtps x
// 1e6 bytes/s. A read's data is visible to its slice latency_ns (controller and PHY,
// including the transfer) after its data starts. A command is issued in the first
// DRAM edge at or after its time, so queue occupancy is clock-accurate while the
// timestamps stay exact.
//
// Reads before writes: writes (write-backs) wait in the queue until they fill 7/8 of it
// (or no read is queued), then drain down to 1/8, so the bus turns around rarely.
// Row opening and column selection consider only the direction being served.
//
// Refresh (t_refi_ns > 0): every t_refi_ns the channel issues no command for t_rfc_ns
// and every row is closed by it. The n channels take the n start times m t_refi +
// s t_refi / n, slot s = 0 for channel 0 and the others' slots in the order of a hash of
// their index (a stream that visits channels in index order at a steady pace would
// otherwise meet every channel at the same point of its refresh cycle); with
// refresh_synchronized every channel refreshes at m t_refi. Per-bank refresh
// (t_rfc_pb_ns > 0): bank b of B is refreshed alone for t_rfc_pb_ns from its channel's
// start time + b t_refi / B; the other banks keep serving.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "configs/sassim_config.pb.h"
#include "ground/link.h"
#include "ground/unit.h"
#include "memsys/dram_address.h"
#include "memsys/mem_packet.h"

namespace sassim::memsys {

// The refresh slot (0 .. channels - 1) of channel index: channel 0 takes slot 0, the
// others slots 1 .. channels - 1 in the order of a hash of their index. In index order,
// successive channels' refreshes would be a fixed time apart, and a pointer chase that
// visits channels at a fixed index step and a steady pace would find every channel at
// the same point of its refresh cycle: always inside a refresh, or never, depending only
// on its addresses.
std::uint32_t refresh_slot(std::uint32_t index, std::uint32_t channels);

class DramChannel final : public ClockedUnit {
 public:
  // to_slices: the fill link of every L2 slice, indexed by slice.
  DramChannel(std::uint32_t index, const config::DramConfig& config, Clock clock,
              std::uint32_t sector_bytes, std::uint32_t line_bytes, Link<DramRequest>& in,
              std::span<Link<DramResponse>* const> to_slices, Doorbell& inbox);

  bool tick(std::uint64_t cycle, Picos now) override;
  // Every channel may fill every slice: in a tile the fills wait for publish() (a
  // slice's fill Link holds all it can have in flight, so none is ever full).
  void set_tiled(bool tiled) override { tiled_ = tiled; }
  void publish() override;
  Picos next_event_ps() const override { return std::min(inbox_.earliest_ps(), next_ps_); }
  bool busy() const override { return !in_.empty() || !queue_.empty(); }
  const std::string& name() const override { return name_; }
  std::string describe_state() const override;
  void report(StatSink& sink) const override;

  std::uint64_t read_bytes() const { return read_bytes_; }
  std::uint64_t write_bytes() const { return write_bytes_; }
  std::uint64_t row_hits() const { return row_hits_; }
  std::uint64_t row_misses() const { return row_misses_; }
  std::uint64_t row_conflicts() const { return row_conflicts_; }
  // DRAM clocks the data bus spent transferring (rounded up).
  std::uint64_t busy_cycles() const;

 private:
  // A point in time: ps + remainder / micro_bits_per_ps_ (0 <= remainder < rate).
  struct BusTime {
    Picos ps = 0;
    std::int64_t remainder = 0;
  };
  enum class Opened : std::uint8_t { kNone, kMiss, kConflict };
  struct Pending {
    DramRequest request;
    DramLocation at;
    Opened opened = Opened::kNone;  // this request opened its row (counted as such)
  };
  struct Bank {
    bool open = false;
    std::uint64_t row = 0;
    std::uint64_t refresh_epoch = 0;  // the refresh interval its row was opened in
    Picos act_ready_ps = 0;           // earliest ACT while closed
    Picos col_ready_ps = 0;           // ACT + tRCD
    Picos pre_ready_ps = 0;           // earliest PRE
  };
  struct Timing {
    Picos rcd = 0, rp = 0, ras = 0, cl = 0, wl = 0, wr = 0, ccd_s = 0, ccd_l = 0, rtw = 0, wtr = 0,
          refi = 0, rfc = 0;  // rfc: t_rfc_pb_ns with per-bank refresh
  };

  static Picos ceil_ps(const BusTime& t) { return t.ps + (t.remainder > 0 ? 1 : 0); }
  static bool earlier(const BusTime& a, const BusTime& b) {
    return a.ps < b.ps || (a.ps == b.ps && a.remainder < b.remainder);
  }
  // Refreshes of bank b start at k t_refi - phase(b) (every bank alike for all-bank refresh).
  Picos phase(std::uint32_t bank) const { return phases_[per_bank_refresh_ ? bank : 0]; }
  // The refresh interval of the bank that t falls in (refresh on): its index k and how
  // far t is past its start k t_refi - phase(bank).
  struct RefreshPoint {
    std::uint64_t epoch;
    Picos into;
  };
  RefreshPoint refresh_point(Picos t, std::uint32_t bank) const;
  // First time at or after t outside every refresh window of the bank.
  Picos after_refresh(Picos t, std::uint32_t bank) const;
  // Start of the next refresh of any bank after now (refresh on).
  Picos next_refresh(Picos now) const;
  std::uint64_t epoch(Picos t, std::uint32_t bank) const {
    return timing_.refi == 0 ? 0 : refresh_point(t, bank).epoch;
  }
  void refresh_rows(Picos now);
  void choose_direction();
  // Opens, in every bank with a queued request of the direction served and none that
  // hits its open row, the row of the oldest such request.
  void open_rows();
  // Bank b's row is now row (or closed): recounts its queued hits in both directions.
  void recount_hits(std::uint32_t bank);
  bool hits_open_row(const Pending& p) const {
    const Bank& bank = banks_[p.at.bank];
    return bank.open && bank.row == p.at.row;
  }
  // Time the data of a request whose row is open could start.
  BusTime data_start(const Pending& p) const;
  Picos column_ps(const Pending& p, const BusTime& start) const {
    return ceil_ps(start) - (p.request.write ? timing_.wl : timing_.cl);
  }
  // Index of the request whose column command can go first (ties: oldest), or size().
  std::size_t best() const;
  void issue(std::size_t index, const BusTime& start, Picos now);

  std::string name_;
  Clock clock_;
  std::uint32_t sector_bytes_;
  Picos latency_ps_;
  std::int64_t micro_bits_per_ps_;  // data_rate_mtps x bus_width_bits (bits per microsecond)
  Timing timing_;
  bool per_bank_refresh_;
  DramAddressMap map_;
  Picos refresh_phase_;  // refreshes start at k t_refi - refresh_phase_ (staggered)
  std::size_t capacity_;
  std::size_t drain_high_;      // writes queued that start a write drain
  std::size_t drain_low_;       // writes queued that end it
  std::vector<Pending> queue_;  // in arrival order
  std::size_t queued_writes_ = 0;
  bool draining_ = false;
  bool writes_turn_ = false;  // the direction served now
  std::vector<Bank> banks_;
  // Per direction (0 reads, 1 writes) and bank: queued requests, and those of them
  // that hit the bank's open row.
  std::vector<std::uint32_t> queued_[2];
  std::vector<std::uint32_t> hits_[2];
  std::vector<Picos> phases_;  // phase() of each bank (per-bank refresh) or of all
  // Per phase: the refresh interval last asked for (refresh_point(), which most calls
  // answer without a division). A cache only: results never depend on it.
  struct EpochCache {
    std::uint64_t epoch = 0;
    Picos start = 0;  // epoch x t_refi, in time shifted by the phase
  };
  mutable std::vector<EpochCache> epoch_cache_;
  // best()'s scratch: per bank, the earliest sent candidate seen in pass `pass`.
  struct BankLead {
    std::uint64_t pass = 0;
    Picos sent_ps = 0;
  };
  mutable std::vector<BankLead> bank_lead_;
  mutable std::uint64_t best_pass_ = 0;
  std::vector<Picos> group_next_col_;  // last column command of the group + tCCD_L
  Picos next_col_ = 0;                 // last column command + tCCD_S
  Picos next_read_col_ = 0;            // end of the last write's data + tWTR
  Picos next_write_col_ = 0;           // last read command + tRTW
  BusTime bus_free_;
  Link<DramRequest>& in_;
  std::span<Link<DramResponse>* const> to_slices_;
  struct HeldFill {
    std::uint32_t slice;
    DramResponse fill;
    Picos now, ready;
  };
  bool tiled_ = false;
  std::vector<HeldFill> held_fills_;  // while tiled: this step's fills, in order
  Doorbell& inbox_;
  Picos next_ps_ = kNever;

  std::uint64_t read_bytes_ = 0;
  std::uint64_t write_bytes_ = 0;
  std::uint64_t row_hits_ = 0;
  std::uint64_t row_misses_ = 0;
  std::uint64_t row_conflicts_ = 0;
};

}  // namespace sassim::memsys
