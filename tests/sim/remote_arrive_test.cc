// Arrivals on another CTA's mbarrier (mbarrier.arrive.shared::cluster, SYNCS.ARRIVE.
// TRANS64.RED): the trace names the barrier by its address in the cluster window
// (shmem base + (1 + rank) x 16 MiB + offset). To a CTA on another SM the arrival
// travels over the SM-to-SM network and acts cluster.dsmem_latency_cycles after it
// issued; to a CTA on the same SM, and on the CTA's own barrier named through its own
// window, at once. Exact cycles on the TMA rig's SMs.
#include <gtest/gtest.h>

#include "tma_rig.h"

namespace sassim::sim::testing {
namespace {

constexpr const char* kBar = "0x7f0000000400";

std::string syncs(const char* pc, const char* op, const std::string& address, int imm) {
  return fmt::format("{} 00000001 0 SYNCS.{} 1 R3 8 0 {} {}", pc, op, address, imm);
}

// The barrier at offset 0x400 of the CTA of `rank`, in the cluster window.
std::string window_of(std::uint32_t rank) {
  return fmt::format("{:#x}", 0x7f0000000000ULL + ((std::uint64_t{rank} + 1) << 24) + 0x400);
}

class RemoteArrive : public TmaRig {
 protected:
  static constexpr std::uint32_t kDsmem = 7;

  // Two one-warp CTAs of a cluster on `sms` SMs. Each sets up its barrier (one arrival)
  // and, after three NOPs, the arriving CTA (rank `from`) arrives on the barrier of rank
  // `to` at 0x40; the CTA of rank `to` waits for phase 0 at 0x50 and runs a NOP at 0x60.
  void run_pair(std::uint32_t sms, std::uint32_t from, std::uint32_t to) {
    config_.set_num_sms(sms);
    config_.mutable_sm()->set_max_ctas(2);
    config_.mutable_sm()->set_sub_cores(2);  // the two CTAs' warps on their own schedulers
    config_.mutable_cluster()->set_dsmem_latency_cycles(kDsmem);
    std::string text = cluster_header(2);
    for (std::uint32_t rank = 0; rank < 2; ++rank) {
      std::vector<std::string> lines = {syncs("0000", "EXCH.64", kBar, -2),
                                        "0010 ffffffff 0 NOP 0 0 0", "0020 ffffffff 0 NOP 0 0 0",
                                        "0030 ffffffff 0 NOP 0 0 0"};
      if (rank == from) {
        lines.push_back(syncs("0040", "ARRIVE.TRANS64.RED.A1T0", window_of(to), 0));
      }
      if (rank == to) {
        lines.push_back(fmt::format(
            "0050 ffffffff 0 SYNCS.PHASECHK.TRANS64.TRYWAIT 2 R3 R0 8 1 {} 0 -1", kBar));
        lines.push_back("0060 ffffffff 0 NOP 0 0 0");
      }
      lines.push_back("0070 ffffffff 0 EXIT 0 0 0");
      text += fmt::format("#BEGIN_TB\n\nthread block = {},0,0\n\n", rank) + warp_text(0, lines) +
              "#END_TB\n";
    }
    use_kernel(text, "arrive.traceg", 32, 1);
    run_on_sms(sms, 200, 0);
  }
};

TEST_F(RemoteArrive, ReachesACtaOnAnotherSmAfterTheNetworkLatency) {
  run_pair(2, 0, 1);  // rank 0 on SM 0 arrives on rank 1's barrier, on SM 1
  const std::uint64_t arrive = recorders_[0].cycle_of(0x40);
  // Delivered kDsmem cycles later; the waiting warp resumes the cycle after.
  EXPECT_EQ(recorders_[1].cycle_of(0x60), arrive + kDsmem + 1);
}

TEST_F(RemoteArrive, ReachesACtaOnTheSameSmAtOnce) {
  run_pair(1, 0, 1);  // both ranks on SM 0
  EXPECT_EQ(recorders_[0].cycle_of(0x60, 1), recorders_[0].cycle_of(0x40, 0) + 1);
}

TEST_F(RemoteArrive, ItsOwnWindowNamesTheCtasOwnBarrier) {
  run_pair(2, 1, 1);  // rank 1 arrives on its own barrier through its cluster window
  // The wait right after the arrive passes at once (a barrier of another key would
  // never complete: the run would stop with the deadlock error).
  EXPECT_EQ(recorders_[1].cycle_of(0x50), recorders_[1].cycle_of(0x40) + 1);
  EXPECT_EQ(recorders_[1].cycle_of(0x60), recorders_[1].cycle_of(0x50) + 1);
}

}  // namespace
}  // namespace sassim::sim::testing
