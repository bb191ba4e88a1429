#pragma once
// One DRAM channel (DRAM clock domain, "gpu.dram.channel[k]"): a bounded request
// queue served in order at the channel's peak rate, with a fixed latency on top.
//
// Timing: the data bus is modelled in exact time. A request starts at
// max(time its slice sent it, time the bus finished the previous transfer) and holds
// the bus for bytes / (bus_width_bits / 8 * data_rate) seconds, kept as picoseconds
// plus an exact remainder, so the peak rate is exactly channels x bus_width_bits / 8
// x data_rate_mtps x 1e6 bytes/s whatever the rounding of the clock period (that is
// bus_width_bits / 8 * 2 bytes per DRAM clock). A read's data is visible to its slice
// latency_ns after its start (rounded up to a picosecond); latency_ns is the unloaded
// time including the transfer, so a lone read adds exactly latency_ns to an L2 hit
// (then rounded up to the slice's next edge). A write only holds the bus. The
// channel dequeues on its own clock edges: a request leaves the queue at the first
// DRAM edge at or after its start, so queue occupancy is clock-accurate while the
// timestamps stay exact. Back to back, request i of a burst sent together starts
// i * bytes / bytes_per_clock DRAM clocks after the first.
#include <cstdint>
#include <span>
#include <string>

#include "configs/sassim_config.pb.h"
#include "memsys/link.h"
#include "memsys/mem_packet.h"
#include "memsys/unit.h"

namespace sassim::memsys {

class DramChannel final : public ClockedUnit {
 public:
  // to_slices: the fill link of every L2 slice, indexed by slice.
  DramChannel(std::uint32_t index, const config::DramConfig& config, Clock clock,
              std::uint32_t sector_bytes, Link<DramRequest>& in,
              std::span<Link<DramResponse>* const> to_slices, Doorbell& inbox);

  bool tick(std::uint64_t cycle, Picos now) override;
  Picos next_event_ps() const override { return std::min(inbox_.earliest_ps, next_ps_); }
  bool busy() const override { return !in_.empty(); }
  const std::string& name() const override { return name_; }
  std::string describe_state() const override;
  void report(StatSink& sink) const override;

  std::uint64_t read_bytes() const { return read_bytes_; }
  std::uint64_t write_bytes() const { return write_bytes_; }
  // DRAM clocks the data bus spent transferring (rounded up).
  std::uint64_t busy_cycles() const;

 private:
  // A point in time: ps + remainder / micro_bits_per_ps_ (0 <= remainder < rate).
  struct BusTime {
    Picos ps = 0;
    std::int64_t remainder = 0;
  };
  BusTime start_of(const DramRequest& request) const;
  static Picos ceil_ps(const BusTime& t) { return t.ps + (t.remainder > 0 ? 1 : 0); }
  Picos compute_next(Picos now, bool blocked) const;

  std::string name_;
  Clock clock_;
  std::uint32_t sector_bytes_;
  Picos latency_ps_;
  std::int64_t micro_bits_per_ps_;  // data_rate_mtps x bus_width_bits (bits per microsecond)
  BusTime bus_free_;
  Link<DramRequest>& in_;
  std::span<Link<DramResponse>* const> to_slices_;
  Doorbell& inbox_;
  Picos next_ps_ = kNever;

  std::uint64_t read_bytes_ = 0;
  std::uint64_t write_bytes_ = 0;
};

}  // namespace sassim::memsys
