#include "memsys/dram_channel.h"

#include <bit>
#include <cmath>

#include <fmt/format.h>

namespace sassim::memsys {
namespace {

constexpr std::int64_t kMicroBitsPerByte = 8'000'000;

}  // namespace

DramChannel::DramChannel(std::uint32_t index, const config::DramConfig& config, Clock clock,
                         std::uint32_t sector_bytes, Link<DramRequest>& in,
                         std::span<Link<DramResponse>* const> to_slices, Doorbell& inbox)
    : name_(fmt::format("gpu.dram.channel[{}]", index)),
      clock_(clock),
      sector_bytes_(sector_bytes),
      latency_ps_(static_cast<Picos>(std::llround(config.latency_ns() * 1000.0))),
      micro_bits_per_ps_(std::max<std::int64_t>(
          1, std::llround(config.data_rate_mtps() * config.bus_width_bits()))),
      in_(in),
      to_slices_(to_slices),
      inbox_(inbox) {}

DramChannel::BusTime DramChannel::start_of(const DramRequest& request) const {
  if (request.sent_ps > bus_free_.ps ||
      (request.sent_ps == bus_free_.ps && bus_free_.remainder == 0)) {
    return BusTime{request.sent_ps, 0};
  }
  return bus_free_;
}

bool DramChannel::tick(std::uint64_t /*cycle*/, Picos now) {
  bool progress = false;
  bool blocked = false;
  while (in_.ready(now)) {
    const DramRequest& front = in_.front();
    const BusTime start = start_of(front);
    if (ceil_ps(start) > now) break;  // the bus is still busy
    if (!front.write && to_slices_[front.slice]->full()) {
      blocked = true;
      break;
    }
    const DramRequest request = in_.pop();
    const std::uint64_t bytes =
        std::uint64_t{sector_bytes_} * static_cast<unsigned>(std::popcount(request.sector_mask));
    const std::int64_t end = start.remainder + static_cast<std::int64_t>(bytes) * kMicroBitsPerByte;
    bus_free_ =
        BusTime{start.ps + static_cast<Picos>(end / micro_bits_per_ps_), end % micro_bits_per_ps_};
    if (request.write) {
      write_bytes_ += bytes;
    } else {
      read_bytes_ += bytes;
      to_slices_[request.slice]->push(DramResponse{request.line, request.sector_mask, request.tag},
                                      now, ceil_ps(start) + latency_ps_);
    }
    progress = true;
  }
  inbox_.earliest_ps = kNever;
  next_ps_ = compute_next(now, blocked);
  return progress;
}

Picos DramChannel::compute_next(Picos now, bool blocked) const {
  if (in_.empty()) return kNever;
  if (blocked) return now + clock_.period_ps;
  return std::max(in_.front_ready_ps(), ceil_ps(start_of(in_.front())));
}

std::uint64_t DramChannel::busy_cycles() const {
  const double per_clock =
      static_cast<double>(micro_bits_per_ps_) * static_cast<double>(clock_.period_ps);
  const double bits =
      static_cast<double>(read_bytes_ + write_bytes_) * static_cast<double>(kMicroBitsPerByte);
  return static_cast<std::uint64_t>(std::ceil(bits / per_clock));
}

std::string DramChannel::describe_state() const {
  std::string head = "empty";
  if (!in_.empty()) {
    const DramRequest& r = in_.front();
    head = fmt::format("{} line {:#x} from slice {} sent at {} ps", r.write ? "write" : "read",
                       r.line, r.slice, r.sent_ps);
  }
  return fmt::format("queue {}/{}, oldest: {}; bus free at {} ps", in_.size(), in_.capacity(), head,
                     ceil_ps(bus_free_));
}

void DramChannel::report(StatSink& sink) const {
  sink.add(name_ + ".read_bytes", static_cast<double>(read_bytes_));
  sink.add(name_ + ".write_bytes", static_cast<double>(write_bytes_));
  sink.add(name_ + ".busy_cycles", static_cast<double>(busy_cycles()));
}

}  // namespace sassim::memsys
