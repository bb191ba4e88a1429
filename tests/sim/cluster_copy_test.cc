// Shared::cluster bulk copies (sim/cluster_multicast.cc): UBLKCP.S.S / UBLKRED.S.S issued
// by rank 0 of a cluster read their source from rank 0's shared memory through the TMA
// engine (no L2 request), cross the issuing SM's port into the SM-to-SM network
// (cluster.dsmem_bytes_per_cycle), arrive cluster.dsmem_latency_cycles after leaving it,
// pass the destination SM's shared data path (a reduction twice its bytes) and then
// complete their bytes on the destination CTA's mbarrier. Exact cycles with the TMA rig's
// mock port on each SM.
#include <gtest/gtest.h>

#include "tma_rig.h"

namespace sassim::sim::testing {
namespace {

constexpr std::uint64_t kWindow = std::uint64_t{1} << 24;
constexpr std::uint64_t kBase = 0x7f0000000000;  // TmaRig::kShmemBase
constexpr const char* kBar = "0x7f0000000400";   // the barrier in the CTA's own window

// The address of `offset` in rank r's window of the cluster.
std::string in_rank(std::uint32_t rank, std::uint64_t offset) {
  return fmt::format("{:#x}", kBase + (rank + 1) * kWindow + offset);
}

std::string syncs(const char* pc, const char* op, int imm) {
  return fmt::format("{} 00000001 0 SYNCS.{} 1 R3 8 0 {} {}", pc, op, kBar, imm);
}

// The receiver: init its barrier (one arrival), arrive expecting `bytes`, wait for
// phase 0, NOP (0x40).
std::vector<std::string> receiver(int bytes) {
  return {syncs("0000", "EXCH.64", -2), syncs("0010", "ARRIVE.TRANS64", -(bytes + 1)),
          fmt::format("0030 ffffffff 0 SYNCS.PHASECHK.TRANS64.TRYWAIT 2 R3 R0 8 1 {} 0 -1", kBar),
          "0040 ffffffff 0 NOP 0 0 0", "0050 ffffffff 0 EXIT 0 0 0"};
}

// The sender (PCs from 0x100, the receiver's below): two NOPs, the copy at 0x120 (`mbarrier`,
// `bytes` to `destination`), then `after`, EXIT.
std::vector<std::string> sender(const std::string& opcode, const std::string& mbarrier,
                                std::uint32_t bytes, const std::string& destination,
                                std::vector<std::string> after = {}) {
  std::vector<std::string> l = {"0100 ffffffff 0 NOP 0 0 0", "0110 ffffffff 0 NOP 0 0 0",
                                fmt::format("0120 00000001 0 {} 0 0 {} 0 {} 0 3 1 {} 0", opcode,
                                            mbarrier, bytes, destination)};
  l.insert(l.end(), after.begin(), after.end());
  l.push_back("0190 ffffffff 0 EXIT 0 0 0");
  return l;
}

class ClusterCopy : public TmaRig {
 protected:
  static constexpr std::uint32_t kDsmem = 7;
  static constexpr std::uint32_t kNetworkBytesPerCycle = 256;
  static constexpr std::uint32_t kDataBytesPerCycle = 128;

  // A cluster of two one-warp CTAs on `sms` SMs of one GPC (rank 0 sends, rank 1
  // receives); each SM's shared data path moves kDataBytesPerCycle for other SMs.
  void run_pair(std::uint32_t sms, const std::vector<std::string>& send,
                const std::vector<std::string>& receive) {
    config_.set_num_sms(sms);
    config_.mutable_sm()->set_max_ctas(2);
    config_.mutable_sm()->set_sub_cores(2);  // two CTAs on one SM: their own schedulers
    config_.mutable_cluster()->set_dsmem_latency_cycles(kDsmem);
    config_.mutable_cluster()->set_dsmem_bytes_per_cycle(kNetworkBytesPerCycle);
    std::string text = cluster_header(2);
    text += "#BEGIN_TB\n\nthread block = 0,0,0\n\n" + warp_text(0, send) + "#END_TB\n";
    text += "#BEGIN_TB\n\nthread block = 1,0,0\n\n" + warp_text(0, receive) + "#END_TB\n";
    use_kernel(text, "cluster_copy.traceg", 32, 1);
    run_on_sms(sms, 200, kDataBytesPerCycle);
  }

  // The cycle the source of `bytes` (32-byte aligned) has been read, for a copy issued
  // at `issue`: address generation, setup, then one sector per 32 / bytes_per_cycle.
  std::uint64_t source_read(std::uint64_t issue, std::uint32_t bytes) const {
    const auto& tma = config_.tma();
    return issue + config_.sm().units().memory().latency_cycles() + tma.setup_latency_cycles() +
           (bytes / 32 - 1) * 32 / tma.bytes_per_cycle();
  }
  // Arrival at the other SM: the network port, then the latency.
  static std::uint64_t crossing(std::uint32_t bytes) {
    return (bytes + kNetworkBytesPerCycle - 1) / kNetworkBytesPerCycle + kDsmem;
  }
  // Completion after the arrival: the data path's cycles for `path_bytes`, the last of
  // them the completion's.
  static std::uint64_t data_path(std::uint32_t path_bytes) {
    return (path_bytes + kDataBytesPerCycle - 1) / kDataBytesPerCycle - 1;
  }
};

TEST_F(ClusterCopy, CopyToRankOneOnAnotherSmCompletesItsBarrierAfterTheNetwork) {
  run_pair(2, sender("UBLKCP.S.S", in_rank(1, 0x400), 1024, in_rank(1, 0x800)), receiver(1024));
  const std::uint64_t issue = recorders_[0].cycle_of(0x120);
  const std::uint64_t read = source_read(issue, 1024);
  EXPECT_EQ(read, issue + 4 + 66 + 7);
  EXPECT_EQ(crossing(1024), 4u + 7u);
  EXPECT_EQ(data_path(1024), 7u);
  EXPECT_EQ(recorders_[1].cycle_of(0x40), read + crossing(1024) + data_path(1024));  // I + 95
  EXPECT_EQ(recorders_[1].cycle_of(0x40), issue + 95);
  // Nothing went to the L2.
  EXPECT_TRUE(ports_[0]->sent.empty());
  EXPECT_TRUE(ports_[1]->sent.empty());
  EXPECT_EQ(ports_[0]->submitted_at, std::vector<std::uint64_t>{issue + 4});
}

TEST_F(ClusterCopy, TheDestinationAddressNamesTheRankWhenTheBarrierIsInTheOwnWindow) {
  run_pair(2, sender("UBLKCP.S.S", kBar, 1024, in_rank(1, 0x800)), receiver(1024));
  const std::uint64_t issue = recorders_[0].cycle_of(0x120);
  EXPECT_EQ(recorders_[1].cycle_of(0x40),
            source_read(issue, 1024) + crossing(1024) + data_path(1024));
}

TEST_F(ClusterCopy, AReductionTakesTheDestinationDataPathTwice) {
  run_pair(2, sender("UBLKRED.S.S.ADD.F32.RN", in_rank(1, 0x400), 1024, in_rank(1, 0x800)),
           receiver(1024));
  const std::uint64_t issue = recorders_[0].cycle_of(0x120);
  EXPECT_EQ(data_path(2048), 15u);
  EXPECT_EQ(recorders_[1].cycle_of(0x40),
            source_read(issue, 1024) + crossing(1024) + data_path(2048));  // I + 103
  EXPECT_TRUE(ports_[0]->sent.empty());
}

TEST_F(ClusterCopy, ADestinationOnTheIssuingSmCrossesNoNetwork) {
  run_pair(1, sender("UBLKCP.S.S", in_rank(1, 0x400), 1024, in_rank(1, 0x800)), receiver(1024));
  const std::uint64_t issue = recorders_[0].cycle_of(0x120, 0);
  EXPECT_EQ(recorders_[0].cycle_of(0x40, 1), source_read(issue, 1024) + data_path(1024));
}

TEST_F(ClusterCopy, TheCopyJoinsNoBulkGroup) {
  // UTMACMDFLUSH then DEPBAR.LE SB0, 0x0: nothing to wait for, the NOP after it issues
  // long before the source has been read.
  run_pair(2,
           sender("UBLKCP.S.S", in_rank(1, 0x400), 1024, in_rank(1, 0x800),
                  {"0130 00000001 0 UTMACMDFLUSH 0 0 0", "0140 00000001 0 DEPBAR.LE 0 0 0",
                   "0150 ffffffff 0 NOP 0 0 0"}),
           receiver(1024));
  const std::uint64_t issue = recorders_[0].cycle_of(0x120);
  EXPECT_LT(recorders_[0].cycle_of(0x150), issue + 10);
  EXPECT_EQ(recorders_[1].cycle_of(0x40),
            source_read(issue, 1024) + crossing(1024) + data_path(1024));
}

TEST_F(ClusterCopy, OutsideAClusterUblkcpIsAGlobalLoadAndUblkredAGlobalReduction) {
  // A kernel without clusters: today's behaviour, 1024 bytes through the L2.
  run({warp_text(
      0, {fmt::format("0000 00000001 0 UBLKCP.S.S 0 0 {} 0 1024 0 3 1 0x10000 0", kBar),
          fmt::format("0010 00000001 0 UBLKRED.S.S.ADD 0 0 {} 0 1024 0 3 1 0x20000 0", kBar),
          "0020 ffffffff 0 EXIT 0 0 0"})});
  ASSERT_EQ(port_->sent.size(), 16u);  // 2 x 1024 bytes in 128-byte lines
  EXPECT_EQ(port_->sent.front().second.kind, memsys::ReqKind::kRead);
  EXPECT_EQ(port_->sent.back().second.kind, memsys::ReqKind::kReduction);
}

}  // namespace
}  // namespace sassim::sim::testing
