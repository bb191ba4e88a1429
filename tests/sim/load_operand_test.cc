// sm.load_to_memory_operand_cycles: a memory instruction reads a register a load wrote
// that many cycles after the load's data returns; other instructions read it at once.
// Exact cycles on one SM against a fixed-latency memory port (register scoreboard), and
// on the control-bit scoreboards directly.
#include <gtest/gtest.h>

#include "sim/warp_scoreboards.h"
#include "sm_harness.h"

namespace sassim::sim {
namespace {

using testing::warp_text;

// R4 <- [R2]; then `rest`. Memory takes 100 cycles, address generation 1, INT ops 6.
class LoadOperandTest : public testing::SmHarness {
 protected:
  void SetUp() override {
    SmHarness::SetUp();
    config_.mutable_sm()->set_load_to_memory_operand_cycles(6);
  }
  void run_after_load(const std::vector<std::string>& rest) {
    std::vector<std::string> lines = {"0000 ffffffff 1 R4 LDG.E 1 R2 4 1 0x100 4"};
    lines.insert(lines.end(), rest.begin(), rest.end());
    run({warp_text(0, lines)}, 100);
  }
  std::uint64_t data_back() { return recorder_.cycle_of(0x00) + 1 + 100; }
  static constexpr const char* kChained = "0010 ffffffff 1 R5 LDG.E 1 R4 4 1 0x200 4";
};

TEST_F(LoadOperandTest, ALoadAddressedByALoadedRegisterWaitsTheExtraCycles) {
  run_after_load({kChained});
  EXPECT_EQ(recorder_.cycle_of(0x10), data_back() + 6);
}

TEST_F(LoadOperandTest, WithoutTheSettingTheChainedLoadIssuesWhenTheDataReturns) {
  config_.mutable_sm()->clear_load_to_memory_operand_cycles();
  run_after_load({kChained});
  EXPECT_EQ(recorder_.cycle_of(0x10), data_back());
}

TEST_F(LoadOperandTest, AnArithmeticConsumerReadsTheLoadedRegisterAtOnce) {
  run_after_load({"0010 ffffffff 1 R5 IADD3 1 R4 0"});
  EXPECT_EQ(recorder_.cycle_of(0x10), data_back());
}

TEST_F(LoadOperandTest, AnAddressComputedFromTheLoadedValueIsNotDelayed) {
  // load, address computation (INT latency 6), load: the second load waits for the ALU only.
  config_.mutable_sm()->set_load_to_memory_operand_cycles(20);
  run_after_load({"0010 ffffffff 1 R6 IADD3 1 R4 0", "0020 ffffffff 1 R7 LDG.E 1 R6 4 1 0x200 4"});
  EXPECT_EQ(recorder_.cycle_of(0x10), data_back());
  EXPECT_EQ(recorder_.cycle_of(0x20), data_back() + 6);
}

TEST_F(LoadOperandTest, ARegisterOverwrittenByArithmeticIsNoLongerLoaded) {
  config_.mutable_sm()->set_load_to_memory_operand_cycles(20);
  run_after_load({"0010 ffffffff 1 R4 IADD3 1 R4 0", "0020 ffffffff 1 R7 LDG.E 1 R4 4 1 0x200 4"});
  EXPECT_EQ(recorder_.cycle_of(0x20), data_back() + 6);  // the ALU's 6, not the load's 20
}

// Control-bit mode: the scoreboard a load's write barrier set.
TEST(LoadOperandScoreboards, MemoryInstructionsWaitForTheMemoryOperandTime) {
  WarpScoreboards sb;
  ControlEntry load;
  load.write_sb = 0;
  control_issue(sb, load, {.cycle = 10, .memory = true});
  ControlEntry consumer;
  consumer.wait_mask = 1;
  EXPECT_EQ(control_ready(sb, consumer, 20, true).state, WarpCycleState::kLongScoreboard);
  control_complete(sb, 0, false, 150 + 6);                         // data back at 150
  EXPECT_EQ(control_ready(sb, consumer, 150, false).cycle, 150U);  // arithmetic: at once
  const ControlReady memory = control_ready(sb, consumer, 150, true);
  EXPECT_EQ(memory.cycle, 156U);
  EXPECT_EQ(memory.state, WarpCycleState::kLongScoreboard);
  EXPECT_EQ(control_ready(sb, consumer, 160, true).cycle, 160U);  // past it: no wait
  // An instruction that does not wait on the scoreboard is not held.
  EXPECT_EQ(control_ready(sb, ControlEntry{}, 150, true).cycle, 150U);
}

}  // namespace
}  // namespace sassim::sim
