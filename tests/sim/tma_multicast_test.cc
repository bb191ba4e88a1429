// TMA multicast (sim/cluster_multicast.cc): a UTMALDG with a CTA mask, issued by rank 0 of a
// cluster, is read once from the L2 and completes the mbarrier of every CTA in the
// mask; for a CTA on another SM the data first crosses the issuing SM's port into the
// SM-to-SM network (cluster.dsmem_bytes_per_cycle, one SM after another) and arrives
// cluster.dsmem_latency_cycles after leaving it, then takes that SM's shared data path
// (sim/cluster_shared_access.cc). Exact cycles with the TMA rig's mock port on each SM
// (reads answered after L = 200 cycles).
#include <gtest/gtest.h>

#include "ground/error.h"
#include "tma_rig.h"

namespace sassim::sim::testing {
namespace {

constexpr const char* kBar = "0x7f0000000400";

std::string syncs(const char* pc, const char* op, int imm) {
  return fmt::format("{} 00000001 0 SYNCS.{} 1 R3 8 0 {} {}", pc, op, kBar, imm);
}

// Both CTAs: init the barrier (one arrival), arrive expecting 4096 bytes, wait for
// phase 0, NOP. Rank 0 loads the 4096 bytes for both (mask `mask`) before its wait.
std::vector<std::string> cta_lines(bool loads, const char* mask) {
  std::vector<std::string> l = {syncs("0000", "EXCH.64", -2),
                                syncs("0010", "ARRIVE.TRANS64", -4097)};
  if (loads) {
    l.push_back(fmt::format(
        "0020 00000001 0 UTMALDG.2D.MULTICAST 0 0 {} 1 {} 4096 0 4 0x10000 2 2048 0", kBar, mask));
  }
  l.push_back(
      fmt::format("0030 ffffffff 0 SYNCS.PHASECHK.TRANS64.TRYWAIT 2 R3 R0 8 1 {} 0 -1", kBar));
  l.push_back("0040 ffffffff 0 NOP 0 0 0");
  l.push_back("0050 ffffffff 0 EXIT 0 0 0");
  return l;
}

class TmaMulticast : public TmaRig {
 protected:
  static constexpr std::uint64_t kL2 = 200;

  // Runs a cluster of `ctas` one-warp CTAs on `sms` SMs of one GPC, `ctas_per_sm` at
  // most; a non-zero `remote_bytes_per_cycle` limits each SM's shared data path for
  // the data of other SMs.
  void run_cluster(std::uint32_t sms, std::uint32_t ctas_per_sm, const char* mask = "0x3",
                   std::uint32_t ctas = 2, std::uint32_t remote_bytes_per_cycle = 0) {
    config_.set_num_sms(sms);
    config_.mutable_sm()->set_max_ctas(ctas_per_sm);
    config_.mutable_cluster()->set_dsmem_latency_cycles(kDsmem);
    config_.mutable_cluster()->set_dsmem_bytes_per_cycle(kNetworkBytesPerCycle);
    std::string text = cluster_header(ctas);
    for (std::uint32_t cta = 0; cta < ctas; ++cta) {
      text += fmt::format("#BEGIN_TB\n\nthread block = {},0,0\n\n", cta) +
              warp_text(0, cta_lines(cta == 0, mask)) + "#END_TB\n";
    }
    use_kernel(text, "multicast.traceg", 32, 1);
    run_on_sms(sms, kL2, remote_bytes_per_cycle);
  }

  // The cycle the load issued at `issue` completes: 32 line requests after address
  // generation and setup, then the L2 round trip.
  std::uint64_t copy_done(std::uint64_t issue) const {
    const auto& tma = config_.tma();
    return issue + config_.sm().units().memory().latency_cycles() + tma.setup_latency_cycles() +
           (32 - 1) * 128 / tma.bytes_per_cycle() + kL2;
  }

  // The time one SM's copy of the 4096 bytes holds the issuing SM's network port.
  static std::uint64_t port_cycles() {
    return (4096 + kNetworkBytesPerCycle - 1) / kNetworkBytesPerCycle;
  }

  static constexpr std::uint32_t kDsmem = 7;
  static constexpr std::uint32_t kNetworkBytesPerCycle = 256;
};

TEST_F(TmaMulticast, OneL2ReadCompletesTheBarrierOfTheCtaOnTheOtherSmLater) {
  run_cluster(2, 1);
  // Rank 0 (CTA 0) on SM 0 loads; rank 1 on SM 1 only waits.
  const std::uint64_t done = copy_done(recorders_[0].cycle_of(0x20));
  EXPECT_EQ(done, recorders_[0].cycle_of(0x20) + 4 + 66 + 31 + 200);
  EXPECT_EQ(recorders_[0].cycle_of(0x40), done);
  // 4096 / 256 = 16 cycles through the network port, then the latency.
  EXPECT_EQ(port_cycles(), 16u);
  EXPECT_EQ(recorders_[1].cycle_of(0x40), done + port_cycles() + kDsmem);
  EXPECT_EQ(ports_[0]->sent.size(), 32u);  // 4096 bytes read once, in 128-byte lines
  EXPECT_TRUE(ports_[1]->sent.empty());
}

TEST_F(TmaMulticast, TheDataLeavesForOneSmAfterAnotherInRankOrder) {
  // Ranks 0, 1, 2 on SMs 0, 1, 2; rank 0 loads for all three (mask 0x7).
  run_cluster(3, 1, "0x7", 3);
  const std::uint64_t done = copy_done(recorders_[0].cycle_of(0x20));
  EXPECT_EQ(recorders_[0].cycle_of(0x40), done);
  // Rank 1's copy holds the port from `done` for 16 cycles, rank 2's the next 16.
  EXPECT_EQ(recorders_[1].cycle_of(0x40), done + port_cycles() + kDsmem);      // done + 23
  EXPECT_EQ(recorders_[2].cycle_of(0x40), done + 2 * port_cycles() + kDsmem);  // done + 39
  EXPECT_EQ(ports_[0]->sent.size(), 32u);
  EXPECT_TRUE(ports_[1]->sent.empty());
  EXPECT_TRUE(ports_[2]->sent.empty());
}

TEST_F(TmaMulticast, CtasOnOneOtherSmShareOneCrossingAndQueueOnItsDataPath) {
  // Four ranks on two SMs, two each: ranks 0 and 2 on SM 0, 1 and 3 on SM 1. Rank 0
  // loads for all four; SM 1's shared data path moves 128 bytes per cycle.
  constexpr std::uint32_t kDataBytesPerCycle = 128;
  config_.mutable_sm()->set_sub_cores(2);  // each SM's two warps on their own schedulers
  run_cluster(2, 2, "0xf", 4, kDataBytesPerCycle);
  const std::uint64_t done = copy_done(recorders_[0].cycle_of(0x20, 0));
  EXPECT_EQ(recorders_[0].cycle_of(0x40, 0), done);
  EXPECT_EQ(recorders_[0].cycle_of(0x40, 1), done);  // rank 2, on the issuing SM
  // One crossing for SM 1; its two writes arrive together, the second takes the data
  // path when the first's 4096 / 128 = 32 cycles are over.
  const std::uint64_t arrival = done + port_cycles() + kDsmem;
  EXPECT_EQ(recorders_[1].cycle_of(0x40, 0), arrival);
  EXPECT_EQ(recorders_[1].cycle_of(0x40, 1), arrival + 4096 / kDataBytesPerCycle);
}

TEST_F(TmaMulticast, CtasOnTheSameSmReceiveTheDataTogether) {
  config_.mutable_sm()->set_sub_cores(2);  // the two warps on their own schedulers
  run_cluster(1, 2);
  const std::uint64_t done = copy_done(recorders_[0].cycle_of(0x20, 0));
  // No network crossing: both at the copy's completion.
  EXPECT_EQ(recorders_[0].cycle_of(0x40, 0), done);
  EXPECT_EQ(recorders_[0].cycle_of(0x40, 1), done);
  EXPECT_EQ(ports_[0]->sent.size(), 32u);
}

TEST_F(TmaMulticast, AMaskWithoutTheIssuingCtaLeavesItsBarrierAlone) {
  // Rank 0 loads for rank 1 only: its own barrier, expecting 4096 bytes, never
  // completes, and the run stops with the deadlock error.
  EXPECT_THROW(run_cluster(2, 1, "0x2"), Error);
}

}  // namespace
}  // namespace sassim::sim::testing
