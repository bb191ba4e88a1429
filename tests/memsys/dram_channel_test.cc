// A DRAM channel alone, fed by a mock slice: exact bus occupancy and latency (no bank
// timing: every timing field 0, one bank).
#include "memsys/dram_channel.h"

#include <gtest/gtest.h>

#include <vector>

#include "dram_rig.h"

namespace sassim::memsys {
namespace {

using testing::ChannelRig;

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
  // The write is alone in the queue at its first edge and takes the bus at 0; the read
  // sent 1 ns later waits for its 128 bytes.
  ChannelRig rig(2000, 64, 4);
  rig.send(1, 0, /*write=*/true, 0xf);
  rig.send(0, 1000);
  const std::vector<Picos> ready = rig.run_and_collect();
  ASSERT_EQ(ready.size(), 1u);
  EXPECT_EQ(ready[0], 8000u + 100'000);
  EXPECT_EQ(rig.channel->write_bytes(), 128u);
  EXPECT_EQ(rig.channel->read_bytes(), 32u);
}

TEST(DramChannel, ReadsGoBeforeQueuedWritesUntilTheWritesFillTheQueue) {
  // Queue of 8: writes wait while a read is queued, until 7 of them are (7/8).
  ChannelRig rig(2000, 64, 8);
  rig.send(100, 0, /*write=*/true, 0xf);
  rig.send(101, 0, /*write=*/true, 0xf);
  rig.send(0, 0);
  std::vector<Picos> ready = rig.run_and_collect();
  ASSERT_EQ(ready.size(), 1u);
  EXPECT_EQ(ready[0], 100'000u);  // before both older writes

  ChannelRig full(2000, 64, 8);
  for (std::uint64_t i = 0; i < 7; ++i) full.send(100 + i, 0, /*write=*/true, 0xf);
  full.send(0, 0);
  ready = full.run_and_collect();
  ASSERT_EQ(ready.size(), 1u);
  // 7 writes fill 7/8 of the queue: they drain down to 1 (6 x 128 bytes) first.
  EXPECT_EQ(ready[0], 6 * 8000u + 100'000);
}

}  // namespace
}  // namespace sassim::memsys
