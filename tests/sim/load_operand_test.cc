// sm.load_to_memory_operand_cycles: a memory instruction reads a register a load wrote
// that many cycles after the load's data returns; other instructions read it at once.
// Exact cycles on one SM against a fixed-latency memory port (register scoreboard), and
// on the control-bit scoreboards directly.
#include <gtest/gtest.h>

#include "memsys/engine.h"
#include "sim/exec_timing.h"
#include "sim/sm.h"
#include "sim/warp_scoreboards.h"
#include "sim_fixtures.h"

namespace sassim::sim {
namespace {

using isa::UnitClass;
using testing::FixedLatencyPort;
using testing::IssueRecorder;
using testing::make_cta;
using testing::make_inst;
using testing::make_load;

constexpr Picos kCycle = 1000;  // 1 GHz core clock in small_config()

class LoadOperandTest : public ::testing::Test {
 protected:
  void SetUp() override {
    config_ = testing::small_config();
    config_.mutable_sm()->set_load_to_memory_operand_cycles(6);
  }

  std::uint32_t add(const isa::StaticInst& inst) { return statics_.add(inst); }

  // One warp of `insts` on one SM, every memory access taking 100 cycles.
  void run(const std::vector<std::uint32_t>& insts) {
    info_.arch = isa::Arch::kSm70;
    info_.block = {32, 1, 1};
    timing_ = std::make_unique<ExecTiming>(config_.sm(), info_.arch, info_.arch);
    context_.info = &info_;
    context_.statics = &statics_;
    context_.timing = timing_.get();
    context_.cta = {32, 1, 0, 0};
    port_ = std::make_unique<FixedLatencyPort>(100 * kCycle);
    sm_ = std::make_unique<Sm>(0, config_, *port_, Clock{kCycle});
    sm_->set_issue_observer(&recorder_);
    sm_->set_warp_state_accounting(WarpStateAccounting::kChecked);
    Engine engine(Clock{kCycle}, Clock{kCycle}, Clock{kCycle}, 10000);
    engine.add(ClockDomain::kCore, sm_.get());
    sm_->accept(make_cta(statics_, {insts}), context_, 0);
    engine.run_until([&] { return !sm_->busy(); });
  }

  config::GpuConfig config_;
  traces::KernelInfo info_;
  traces::StaticInstTable statics_;
  std::unique_ptr<ExecTiming> timing_;
  KernelContext context_;
  std::unique_ptr<FixedLatencyPort> port_;
  std::unique_ptr<Sm> sm_;
  IssueRecorder recorder_;
};

TEST_F(LoadOperandTest, ALoadAddressedByALoadedRegisterWaitsTheExtraCycles) {
  auto ld = add(make_load(0x00, isa::RegRange{4, 1}, 2));
  auto chained = add(make_load(0x10, isa::RegRange{5, 1}, 4));  // address R4
  run({ld, chained});
  // 1 + address generation 1 + memory 100 = 102, then 6 more.
  EXPECT_EQ(recorder_.cycle_of(0x10), 108U);
}

TEST_F(LoadOperandTest, WithoutTheSettingTheChainedLoadIssuesWhenTheDataReturns) {
  config_.mutable_sm()->clear_load_to_memory_operand_cycles();
  auto ld = add(make_load(0x00, isa::RegRange{4, 1}, 2));
  auto chained = add(make_load(0x10, isa::RegRange{5, 1}, 4));
  run({ld, chained});
  EXPECT_EQ(recorder_.cycle_of(0x10), 102U);
}

TEST_F(LoadOperandTest, AnArithmeticConsumerReadsTheLoadedRegisterAtOnce) {
  auto ld = add(make_load(0x00, isa::RegRange{4, 1}, 2));
  auto use = add(make_inst(0x10, UnitClass::kIntAlu, {4}, isa::RegRange{5, 1}));
  run({ld, use});
  EXPECT_EQ(recorder_.cycle_of(0x10), 102U);
}

TEST_F(LoadOperandTest, AnAddressComputedFromTheLoadedValueIsNotDelayed) {
  // load, IMAD-like address computation, load: the second load waits only for the ALU.
  auto ld = add(make_load(0x00, isa::RegRange{4, 1}, 2));
  auto addr = add(make_inst(0x10, UnitClass::kIntAlu, {4}, isa::RegRange{6, 1}));
  auto chained = add(make_load(0x20, isa::RegRange{7, 1}, 6));
  run({ld, addr, chained});
  EXPECT_EQ(recorder_.cycle_of(0x10), 102U);
  // The ALU result counts from its issue: 102 + INT latency of small_config().
  const std::uint32_t alu = timing_->latency(statics_[addr].op);
  EXPECT_EQ(recorder_.cycle_of(0x20), 102U + alu);
}

TEST_F(LoadOperandTest, ARegisterOverwrittenByArithmeticIsNoLongerLoaded) {
  auto ld = add(make_load(0x00, isa::RegRange{4, 1}, 2));
  auto over = add(make_inst(0x10, UnitClass::kIntAlu, {4}, isa::RegRange{4, 1}));
  auto chained = add(make_load(0x20, isa::RegRange{7, 1}, 4));
  run({ld, over, chained});
  const std::uint32_t alu = timing_->latency(statics_[over].op);
  EXPECT_EQ(recorder_.cycle_of(0x20), 102U + alu);
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
