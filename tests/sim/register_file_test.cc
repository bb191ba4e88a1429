// Exact-cycle tests of register-file bank conflicts and the operand reuse cache
// (sm.register_file): one sub-core, FP32 latency 4 / interval 2 (small_config()), the
// first issue at cycle 1.
#include "sim/register_file.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "configs/config_loader.h"
#include "ground/error.h"
#include "sm_harness.h"

namespace sassim::sim {
namespace {

using testing::warp_text;

constexpr std::uint64_t kFirst = 1;        // CTA lands at 0, launch latency at least 1
constexpr std::uint64_t kFp32Latency = 4;  // small_config()

class RegisterFileTest : public testing::SmHarness {
 protected:
  void banks(std::uint32_t banks, std::uint32_t ports, bool reuse = true) {
    config::RegisterFileConfig& rf = *config_.mutable_sm()->mutable_register_file();
    rf.set_banks(banks);
    rf.set_read_ports_per_bank(ports);
    rf.set_reuse_cache(reuse);
  }
  // FFMA R0, R2, R4, R6 (three reads from bank 0 of 2) and an FADD reading its result.
  static std::vector<std::string> conflict_then_dependent() {
    return {warp_text(
        0, {"0000 ffffffff 1 R0 FFMA 3 R2 R4 R6 0", "0010 ffffffff 1 R8 FADD 2 R0 R1 0"})};
  }
  std::uint64_t conflicts() const { return sm_->counters().register_bank_conflicts; }
};

TEST_F(RegisterFileTest, WithoutABankModelOperandReadsCostNothing) {
  run(conflict_then_dependent());
  EXPECT_EQ(recorder_.cycle_of(0x10), kFirst + kFp32Latency);
  EXPECT_EQ(cycles_in(WarpCycleState::kDispatchStall), 0U);
  EXPECT_EQ(conflicts(), 0U);
}

TEST_F(RegisterFileTest, ThreeReadsFromOneSinglePortedBankDelayDispatchByTwoCycles) {
  banks(2, 1);
  run(conflict_then_dependent());
  // ceil(3 reads / 1 port) = 3 cycles: dispatch 2 cycles late, the result 2 cycles later.
  constexpr std::uint64_t kExtra = 3 - 1;
  EXPECT_EQ(recorder_.cycle_of(0x00), kFirst);
  EXPECT_EQ(recorder_.cycle_of(0x10), kFirst + kExtra + kFp32Latency);
  EXPECT_EQ(conflicts(), 1U);
  // The warp waits for its own dispatch in cycles 2 and 3, then for the result (wait).
  EXPECT_EQ(cycles_in(WarpCycleState::kDispatchStall), kExtra);
}

TEST_F(RegisterFileTest, TwoPortsPerBankReadThreeRegistersInTwoCycles) {
  banks(2, 2);
  run(conflict_then_dependent());
  EXPECT_EQ(recorder_.cycle_of(0x10), kFirst + 1 + kFp32Latency);  // ceil(3 / 2) - 1 = 1
}

TEST_F(RegisterFileTest, ReadsOverlapThePipeInterval) {
  banks(2, 2);
  // Two independent FFMAs, each with three sources in bank 0: 2 read cycles, as long as
  // the FP32 interval, so the second issues when it would without banks (1 + 2).
  run({warp_text(
      0, {"0000 ffffffff 1 R0 FFMA 3 R2 R4 R6 0", "0010 ffffffff 1 R1 FFMA 3 R8 R10 R12 0"})});
  EXPECT_EQ(recorder_.cycle_of(0x10), kFirst + 2);
  EXPECT_EQ(conflicts(), 2U);
}

TEST_F(RegisterFileTest, ReadsLongerThanThePipeIntervalSetTheRate) {
  banks(2, 1);
  // 3 read cycles each > the FP32 interval of 2: one FFMA per 3 cycles.
  run({warp_text(0,
                 {"0000 ffffffff 1 R0 FFMA 3 R2 R4 R6 0", "0010 ffffffff 1 R1 FFMA 3 R8 R10 R12 0",
                  "0020 ffffffff 1 R3 FFMA 3 R8 R10 R12 0"})});
  EXPECT_EQ(recorder_.cycle_of(0x10), kFirst + 3);
  EXPECT_EQ(recorder_.cycle_of(0x20), kFirst + 6);
}

TEST_F(RegisterFileTest, RegistersInDifferentBanksAndRepeatedRegistersReadOnce) {
  banks(4, 1);
  // R2, R3, R5: banks 2, 3, 1 -> no conflict. Then R2, R2, R6: R2 once, R6 also bank 2
  // -> 2 reads from bank 2, one extra cycle.
  run({warp_text(0, {"0000 ffffffff 1 R0 FFMA 3 R2 R3 R5 0", "0010 ffffffff 1 R1 FFMA 3 R2 R2 R6 0",
                     "0020 ffffffff 1 R8 FADD 2 R1 R0 0"})});
  // FP32 interval 2: the second FFMA issues at 3 and dispatches at 4; FADD at 4 + 4.
  EXPECT_EQ(recorder_.cycle_of(0x10), kFirst + 2);
  EXPECT_EQ(recorder_.cycle_of(0x20), kFirst + 2 + 1 + kFp32Latency);
  EXPECT_EQ(conflicts(), 1U);
}

TEST_F(RegisterFileTest, OtherWarpsOfTheSubCoreWaitForTheDelayedDispatch) {
  banks(2, 1);
  run({warp_text(0, {"0000 ffffffff 1 R0 FFMA 3 R2 R4 R6 0", "0010 ffffffff 0 NOP 0 0"}),
       warp_text(1, {"0020 ffffffff 0 NOP 0 0"})});
  // Warp 0 dispatches at 1 + 2 = 3; the sub-core issues again at 4: warp 0 (greedy),
  // then warp 1. Both warps spend cycles 2 and 3 in dispatch_stall.
  EXPECT_EQ(recorder_.cycle_of(0x10, 0), 4U);
  EXPECT_EQ(recorder_.cycle_of(0x20, 1), 5U);
  EXPECT_EQ(cycles_in(WarpCycleState::kDispatchStall), 4U);
}

// A listing of kernel "k": three IMADs (int_mad: latency 1, interval 1) of stall 1 and no
// scoreboards; the first has the reuse flag on R2 and (when `both`) on R4.
traces::sass::Listing reuse_listing(bool both) {
  const std::string text = fmt::format(
      "        .global         k\n"
      "k:\n"
      "        /*0000*/  IMAD R0, R2.reuse, {}, R6 ;  /* 0x0000000402007223 */\n"
      "                                             /* {} */\n"
      "        /*0010*/  IMAD R1, R2, R4, R6 ;  /* 0x0000000402017223 */\n"
      "                                       /* 0x000fc20000000006 */\n"
      "        /*0020*/  IMAD R3, R2, R4, R6 ;  /* 0x0000000402037223 */\n"
      "                                       /* 0x000fc20000000006 */\n",
      both ? "R4.reuse" : "R4", both ? "0x0c0fc20000000006" : "0x040fc20000000006");
  return traces::sass::parse_listing(text, "reuse.sass");
}

const std::vector<std::string> kThreeImads = {"0000 ffffffff 1 R0 IMAD 3 R2 R4 R6 0",
                                              "0010 ffffffff 1 R1 IMAD 3 R2 R4 R6 0",
                                              "0020 ffffffff 1 R3 IMAD 3 R2 R4 R6 0"};

TEST_F(RegisterFileTest, AReusedOperandIsNotReadFromItsBank) {
  banks(2, 2);
  listings_.push_back(reuse_listing(false));
  run({warp_text(0, kThreeImads)});
  // 0000: 3 reads from bank 0, one extra cycle: dispatch at 2, next issue 2 + stall 1.
  // 0010: R2 comes from the reuse cache, R4 and R6 fit the two ports: no extra cycle.
  // 0020: 0010 set no reuse flag, so three reads again.
  EXPECT_EQ(recorder_.cycle_of(0x00), kFirst);
  EXPECT_EQ(recorder_.cycle_of(0x10), kFirst + 1 + 1);
  EXPECT_EQ(recorder_.cycle_of(0x20), kFirst + 1 + 1 + 1);
  EXPECT_EQ(conflicts(), 2U);
}

TEST_F(RegisterFileTest, TwoReusedOperandsLeaveOneReadForASinglePort) {
  banks(2, 1);
  listings_.push_back(reuse_listing(true));
  run({warp_text(0, kThreeImads)});
  // 0000: +2 (dispatch at 3, next issue at 4); 0010: only R6 is read; 0020: +2 again.
  EXPECT_EQ(recorder_.cycle_of(0x10), kFirst + 2 + 1);
  EXPECT_EQ(recorder_.cycle_of(0x20), kFirst + 2 + 1 + 1);
  EXPECT_EQ(conflicts(), 2U);
}

TEST_F(RegisterFileTest, WithTheReuseCacheOffReuseFlagsAreIgnored) {
  banks(2, 2, /*reuse=*/false);
  listings_.push_back(reuse_listing(false));
  run({warp_text(0, kThreeImads)});
  EXPECT_EQ(recorder_.cycle_of(0x10), kFirst + 1 + 1);
  EXPECT_EQ(recorder_.cycle_of(0x20), kFirst + 2 * (1 + 1));  // +1 each
  EXPECT_EQ(conflicts(), 3U);
}

TEST(RegisterFileConfigTest, TooManyBanksNameTheField) {
  try {
    config::load_config("v100", {"sm.register_file.banks=65"});
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("sm.register_file.banks = 65 is out of range"));
  }
}

}  // namespace
}  // namespace sassim::sim
