#pragma once
// One DRAM channel alone, fed by a mock slice that pushes requests into its link, and
// the fill link it answers into.
#include <memory>
#include <vector>

#include "configs/sassim_config.pb.h"
#include "ground/engine.h"
#include "memsys/dram_channel.h"

namespace sassim::memsys::testing {

struct ChannelRig {
  // A one-channel HBM2-typed config: data_rate_mtps / 2 MHz DRAM clock, latency 100 ns,
  // no bank timing; tests set more fields on `dram` before build().
  ChannelRig(double data_rate_mtps, std::uint32_t bus_width_bits, std::size_t requests)
      : requests_(requests) {
    dram.set_type("HBM2");
    dram.set_channels(1);
    dram.set_bus_width_bits(bus_width_bits);
    dram.set_data_rate_mtps(data_rate_mtps);
    dram.set_latency_ns(100);
    dram.set_queue_entries(static_cast<std::uint32_t>(requests));
    clock = Clock::from_mhz(data_rate_mtps / 2);
    build();
  }
  // (Re)creates the channel and its links from `dram`.
  void build() {
    in = std::make_unique<Link<DramRequest>>(requests_, &bell);
    fills = std::make_unique<Link<DramResponse>>(requests_, nullptr);
    fill_ptrs = {fills.get()};
    channel = std::make_unique<DramChannel>(0, dram, clock, 32, 128, *in, fill_ptrs, bell);
  }
  void send(std::uint64_t line, Picos t, bool write = false, std::uint32_t mask = 1) {
    in->push(DramRequest{.line = line,
                         .sent_ps = t,
                         .sector_mask = mask,
                         .tag = static_cast<std::uint32_t>(line),
                         .slice = 0,
                         .write = write},
             t, t + 1);
  }
  // Sends n one-sector reads of lines 0..n-1 at time t, as a slice would in one edge.
  void send_reads(std::size_t n, Picos t) {
    for (std::size_t i = 0; i < n; ++i) send(i, t);
  }
  struct Fill {
    std::uint64_t line;
    Picos ready_ps;
  };
  std::vector<Fill> run_and_collect_fills() {
    Engine engine(Clock{1000}, Clock{1000}, clock, 1000000);
    engine.add(ClockDomain::kDram, channel.get());
    engine.run_until([this] { return !channel->busy(); });
    std::vector<Fill> out;
    while (!fills->empty()) {
      out.push_back(Fill{fills->front().line, fills->front_ready_ps()});
      fills->pop();
    }
    return out;
  }
  std::vector<Picos> run_and_collect() {
    std::vector<Picos> ready;
    for (const Fill& f : run_and_collect_fills()) ready.push_back(f.ready_ps);
    return ready;
  }

  config::DramConfig dram;
  Clock clock;
  Doorbell bell;
  std::unique_ptr<Link<DramRequest>> in;
  std::unique_ptr<Link<DramResponse>> fills;
  std::vector<Link<DramResponse>*> fill_ptrs;
  std::unique_ptr<DramChannel> channel;

 private:
  std::size_t requests_;
};

}  // namespace sassim::memsys::testing
