// WARPGROUP.DEPBAR.LE gsb0, N with a listing: the wgmma ending with gsb0 commit their
// groups, and the DEPBAR waits for the committed groups but the newest N (traces record
// neither, so without a listing it waits for every wgmma issued before it).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <fmt/format.h>

#include "sm_harness.h"

namespace sassim::sim {
namespace {

class WarpgroupDepbar : public testing::SmHarness {
 protected:
  void SetUp() override {
    config_ = testing::hopper_config();  // HGMMA.64x64x16: latency 32, interval 16
  }

  // A listing of kernel "k": one instruction per text, at PCs 0x00, 0x10, ...; stall 1,
  // no scoreboards.
  static traces::sass::Listing listing(const std::vector<std::string>& texts) {
    std::string s = "        .global         k\nk:\n";
    for (std::size_t i = 0; i < texts.size(); ++i) {
      s += fmt::format("        /*{:04x}*/  {} ;  /* 0x0000000000000000 */\n", 0x10 * i, texts[i]);
      s += "                          /* 0x000fe20000000000 */\n";
    }
    return traces::sass::parse_listing(s, "k.sass");
  }

  // Four warps of: wgmma A (R24), wgmma B (R56), DEPBAR.LE 1, NOP, DEPBAR.LE 0, NOP.
  void run_two_wgmma(bool commit_b, bool with_listing) {
    if (with_listing) {
      listings_ = {listing(
          {"HGMMA.64x64x16.F32.BF16 R24, gdesc[UR4], R24, gsb0",
           std::string("HGMMA.64x64x16.F32.BF16 R56, gdesc[UR8], R56") + (commit_b ? ", gsb0" : ""),
           "WARPGROUP.DEPBAR.LE gsb0, 0x1", "NOP", "WARPGROUP.DEPBAR.LE gsb0, 0x0", "NOP",
           "EXIT"})};
    }
    const std::vector<std::string> lines = {"0000 ffffffff 1 R24 HGMMA.64x64x16.F32.BF16 1 R24 0",
                                            "0010 ffffffff 1 R56 HGMMA.64x64x16.F32.BF16 1 R56 0",
                                            "0020 ffffffff 0 WARPGROUP.DEPBAR.LE 0 0",
                                            "0030 ffffffff 0 NOP 0 0",
                                            "0040 ffffffff 0 WARPGROUP.DEPBAR.LE 0 0",
                                            "0050 ffffffff 0 NOP 0 0",
                                            "0060 ffffffff 0 EXIT 0 0"};
    std::vector<std::string> warps;
    for (int w = 0; w < 4; ++w) warps.push_back(testing::warp_text(w, lines));
    run(warps, 100, 90);
  }
};

// A starts at 1 (every warp issued it) and ends at 33; B starts one interval later, at
// 17, and ends at 49.
TEST_F(WarpgroupDepbar, LeOneWaitsForTheOlderGroupOnly) {
  run_two_wgmma(true, true);
  for (unsigned w = 0; w < 4; ++w) {
    EXPECT_EQ(recorder_.cycle_of(0x20, w), 3U) << w;
    EXPECT_EQ(recorder_.cycle_of(0x30, w), 33U) << w;  // A done; B may stay pending
    EXPECT_EQ(recorder_.cycle_of(0x50, w), 49U) << w;  // LE 0: B done
  }
}

TEST_F(WarpgroupDepbar, UncommittedWgmmaIsNotWaitedFor) {
  run_two_wgmma(false, true);
  // B never committed: LE 1 leaves A pending too, and LE 0 waits for A only.
  for (unsigned w = 0; w < 4; ++w) {
    EXPECT_EQ(recorder_.cycle_of(0x30, w), 4U) << w;
    EXPECT_EQ(recorder_.cycle_of(0x50, w), 33U) << w;
  }
}

TEST_F(WarpgroupDepbar, WithoutAListingEveryDepbarWaitsForAll) {
  run_two_wgmma(true, false);
  for (unsigned w = 0; w < 4; ++w) {
    EXPECT_EQ(recorder_.cycle_of(0x30, w), 49U) << w;  // after B
    EXPECT_EQ(recorder_.cycle_of(0x50, w), 51U) << w;  // the second DEPBAR issues at 50
  }
}

}  // namespace
}  // namespace sassim::sim
