// A DRAM channel alone, fed by a mock slice: exact bus occupancy and latency.
#include "memsys/dram_channel.h"

#include <gtest/gtest.h>

#include <vector>

#include "memsys/engine.h"
#include "memsys_test_support.h"

namespace sassim::memsys {
namespace {

struct ChannelRig {
  explicit ChannelRig(double data_rate_mtps, std::uint32_t bus_width_bits, std::size_t requests) {
    dram.set_type("HBM2");
    dram.set_channels(1);
    dram.set_bus_width_bits(bus_width_bits);
    dram.set_data_rate_mtps(data_rate_mtps);
    dram.set_latency_ns(100);
    clock = Clock::from_mhz(data_rate_mtps / 2);
    in = std::make_unique<Link<DramRequest>>(requests, &bell);
    fills = std::make_unique<Link<DramResponse>>(requests, nullptr);
    fill_ptrs.push_back(fills.get());
    channel = std::make_unique<DramChannel>(0, dram, clock, 32, *in, fill_ptrs, bell);
  }
  // Sends n one-sector reads at time t, as a slice would in one edge.
  void send_reads(std::size_t n, Picos t) {
    for (std::size_t i = 0; i < n; ++i) {
      in->push(
          DramRequest{
              .line = i, .sent_ps = t, .sector_mask = 1, .tag = 0, .slice = 0, .write = false},
          t, t + 1);
    }
  }
  std::vector<Picos> run_and_collect() {
    Engine engine(Clock{1000}, Clock{1000}, clock, 1000000);
    engine.add(ClockDomain::kDram, channel.get());
    engine.run_until([this] { return !channel->busy(); });
    std::vector<Picos> ready;
    while (!fills->empty()) {
      ready.push_back(fills->front_ready_ps());
      fills->pop();
    }
    return ready;
  }

  config::DramConfig dram;
  Clock clock;
  Doorbell bell;
  std::unique_ptr<Link<DramRequest>> in;
  std::unique_ptr<Link<DramResponse>> fills;
  std::vector<Link<DramResponse>*> fill_ptrs;
  std::unique_ptr<DramChannel> channel;
};

TEST(DramChannel, LoneReadTakesExactlyTheLatency) {
  ChannelRig rig(2000, 64, 1);
  rig.send_reads(1, 4321);
  const std::vector<Picos> ready = rig.run_and_collect();
  ASSERT_EQ(ready.size(), 1u);
  EXPECT_EQ(ready[0], 4321u + 100'000);
}

TEST(DramChannel, StreamingTakesBytesOverBytesPerClock) {
  // 64-bit bus at 2000 MT/s: 16 bytes per 1000 ps clock, so a 32-byte sector holds
  // the bus for exactly 2 clocks.
  constexpr std::size_t kN = 64;
  ChannelRig rig(2000, 64, kN);
  rig.send_reads(kN, 0);
  const std::vector<Picos> ready = rig.run_and_collect();
  ASSERT_EQ(ready.size(), kN);
  for (std::size_t i = 0; i < kN; ++i) EXPECT_EQ(ready[i], i * 2000 + 100'000) << i;
  // N sectors: N * 32 / 16 clocks of bus time, the last data at (N - 1) * 2 clocks + latency.
  EXPECT_EQ(rig.channel->busy_cycles(), kN * 32 / 16);
  EXPECT_EQ(rig.channel->read_bytes(), kN * 32);
}

TEST(DramChannel, FractionalBytesPerClockIsExactOverTime) {
  // 48-bit bus at 2000 MT/s: 12 bytes per clock, so a sector takes 8/3 clocks.
  constexpr std::size_t kN = 30;
  ChannelRig rig(2000, 48, kN);
  rig.send_reads(kN, 0);
  const std::vector<Picos> ready = rig.run_and_collect();
  ASSERT_EQ(ready.size(), kN);
  for (std::size_t i = 0; i < kN; ++i) {
    const Picos start = (i * 8000 + 2) / 3;  // ceil(i * 8000 / 3) ps
    EXPECT_EQ(ready[i], start + 100'000) << i;
  }
  EXPECT_EQ(rig.channel->busy_cycles(), 80u);  // 30 * 32 / 12
}

TEST(DramChannel, WritesUseTheBusWithoutAnswer) {
  ChannelRig rig(2000, 64, 4);
  rig.in->push(
      DramRequest{.line = 1, .sent_ps = 0, .sector_mask = 0xf, .tag = 0, .slice = 0, .write = true},
      0, 1);
  rig.send_reads(1, 0);
  const std::vector<Picos> ready = rig.run_and_collect();
  ASSERT_EQ(ready.size(), 1u);
  EXPECT_EQ(ready[0], 8000u + 100'000);  // behind 128 bytes of write data
  EXPECT_EQ(rig.channel->write_bytes(), 128u);
  EXPECT_EQ(rig.channel->read_bytes(), 32u);
}

}  // namespace
}  // namespace sassim::memsys
