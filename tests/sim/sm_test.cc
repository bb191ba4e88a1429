// Exact-cycle tests of one SM against a fixed-latency memory port.
#include <gtest/gtest.h>

#include "ground/engine.h"
#include "ground/error.h"
#include "isa/flops.h"
#include "sim/exec_timing.h"
#include "sim/sm.h"
#include "sim_fixtures.h"

namespace sassim::sim {
namespace {

using isa::UnitClass;
using testing::FixedLatencyPort;
using testing::IssueRecorder;
using testing::make_barrier;
using testing::make_cta;
using testing::make_inst;
using testing::make_load;

constexpr Picos kCycle = 1000;  // 1 GHz core clock in small_config()

class SmTest : public ::testing::Test {
 protected:
  void SetUp() override { config_ = testing::small_config(); }

  std::uint32_t add(const isa::StaticInst& inst) { return statics_.add(inst); }

  // Runs the warps (static indices) as one CTA on one SM until it retires.
  void run(const std::vector<std::vector<std::uint32_t>>& warps,
           Picos memory_latency_cycles = 100) {
    info_.arch = isa::Arch::kSm70;
    info_.block = {static_cast<std::uint32_t>(32 * warps.size()), 1, 1};
    timing_ = std::make_unique<ExecTiming>(config_.sm(), info_.arch, info_.arch);
    context_.info = &info_;
    context_.statics = &statics_;
    context_.timing = timing_.get();
    context_.cta = {static_cast<std::uint32_t>(32 * warps.size()),
                    static_cast<std::uint32_t>(warps.size()), 0, 0};
    port_ = std::make_unique<FixedLatencyPort>(memory_latency_cycles * kCycle);
    sm_ = std::make_unique<Sm>(0, config_, *port_, Clock{kCycle});
    sm_->set_issue_observer(&recorder_);
    sm_->set_warp_state_accounting(WarpStateAccounting::kChecked);  // throws on a stale state
    Engine engine(Clock{kCycle}, Clock{kCycle}, Clock{kCycle}, 10000);
    engine.add(ClockDomain::kCore, sm_.get());
    sm_->accept(make_cta(statics_, warps), context_, 0);
    engine.run_until([&] { return !sm_->busy(); });
    end_cycle_ = engine.cycle(ClockDomain::kCore);
  }

  config::GpuConfig config_;
  traces::KernelInfo info_;
  traces::StaticInstTable statics_;
  std::unique_ptr<ExecTiming> timing_;
  KernelContext context_;
  std::unique_ptr<FixedLatencyPort> port_;
  std::unique_ptr<Sm> sm_;
  IssueRecorder recorder_;
  std::uint64_t end_cycle_ = 0;
};

TEST_F(SmTest, DependentInstructionIssuesExactlyAtProducerLatency) {
  auto ffma = add(make_inst(0x00, UnitClass::kFp32, {}, isa::RegRange{1, 1}));
  auto fadd = add(make_inst(0x10, UnitClass::kFp32, {1}, isa::RegRange{2, 1}));
  run({{ffma, fadd}});
  EXPECT_EQ(recorder_.cycle_of(0x00), 1U);  // first issue one cycle after the CTA lands
  EXPECT_EQ(recorder_.cycle_of(0x10), 5U);  // 1 + FP32 latency 4, not a cycle earlier
}

std::uint64_t cycles_in(const Sm& sm, WarpCycleState state) {
  return sm.counters().warp_cycles[static_cast<std::size_t>(state)];
}

TEST_F(SmTest, EveryResidentWarpCycleIsInExactlyOneState) {
  auto ffma = add(make_inst(0x00, UnitClass::kFp32, {}, isa::RegRange{1, 1}));
  auto fadd = add(make_inst(0x10, UnitClass::kFp32, {1}, isa::RegRange{2, 1}));
  run({{ffma, fadd}});
  // Resident from cycle 0 to 6: issues at 1 and 5, waits at 0 (launch) and 2..4.
  EXPECT_EQ(cycles_in(*sm_, WarpCycleState::kSelected), 2U);
  EXPECT_EQ(cycles_in(*sm_, WarpCycleState::kWait), 4U);
  std::uint64_t total = 0;
  for (auto c : sm_->counters().warp_cycles) total += c;
  EXPECT_EQ(total, 6U);
  EXPECT_EQ(sm_->counters().flops[static_cast<std::size_t>(isa::FlopKind::kFp32)], 0.0);
}

TEST_F(SmTest, LoadWaitsCountAsLongScoreboard) {
  auto ld = add(make_load(0x00, isa::RegRange{4, 1}, 2));
  auto use = add(make_inst(0x10, UnitClass::kIntAlu, {4}, isa::RegRange{5, 1}));
  run({{ld, use}}, 100);
  EXPECT_EQ(cycles_in(*sm_, WarpCycleState::kLongScoreboard), 100U);  // cycles 2..101
  EXPECT_EQ(cycles_in(*sm_, WarpCycleState::kSelected), 2U);
}

TEST_F(SmTest, SharedLoadWaitsCountAsShortScoreboard) {
  isa::StaticInst lds = make_load(0x00, isa::RegRange{4, 1}, 2);
  lds.op.space = isa::MemSpace::kShared;
  auto ld = add(lds);
  auto use = add(make_inst(0x10, UnitClass::kIntAlu, {4}, isa::RegRange{5, 1}));
  run({{ld, use}}, 30);
  EXPECT_EQ(cycles_in(*sm_, WarpCycleState::kShortScoreboard), 30U);
  EXPECT_EQ(cycles_in(*sm_, WarpCycleState::kLongScoreboard), 0U);
}

TEST_F(SmTest, FlopsCountActiveThreads) {
  isa::StaticInst ffma = make_inst(0x00, UnitClass::kFp32, {}, isa::RegRange{1, 1});
  ffma.op.flop_kind = static_cast<std::uint8_t>(isa::FlopKind::kFp32);
  ffma.op.flops_per_thread = 2;
  auto a = add(ffma);
  run({{a, a}});
  EXPECT_EQ(sm_->counters().flops[static_cast<std::size_t>(isa::FlopKind::kFp32)], 128.0);
}

TEST_F(SmTest, LatencyComesFromTheConfig) {
  config_.mutable_sm()->mutable_units()->mutable_fp32()->set_latency_cycles(7);
  auto ffma = add(make_inst(0x00, UnitClass::kFp32, {}, isa::RegRange{1, 1}));
  auto fadd = add(make_inst(0x10, UnitClass::kFp32, {1}, isa::RegRange{2, 1}));
  run({{ffma, fadd}});
  EXPECT_EQ(recorder_.cycle_of(0x10) - recorder_.cycle_of(0x00), 7U);
}

TEST_F(SmTest, IndependentInstructionsRespectTheInitiationInterval) {
  auto a = add(make_inst(0x00, UnitClass::kFp32, {}, isa::RegRange{1, 1}));
  auto b = add(make_inst(0x10, UnitClass::kFp32, {}, isa::RegRange{2, 1}));
  auto c = add(make_inst(0x20, UnitClass::kIntAlu, {}, isa::RegRange{3, 1}));
  run({{a, b, c}});
  EXPECT_EQ(recorder_.cycle_of(0x00), 1U);
  EXPECT_EQ(recorder_.cycle_of(0x10), 3U);  // FP32 pipe busy for 2 cycles
  EXPECT_EQ(recorder_.cycle_of(0x20), 4U);  // in order behind b, other pipe
}

TEST_F(SmTest, WriteAfterWriteWaitsForTheFirstWriter) {
  auto a = add(make_inst(0x00, UnitClass::kIntAlu, {}, isa::RegRange{1, 1}));
  auto b = add(make_inst(0x10, UnitClass::kFp32, {}, isa::RegRange{1, 1}));
  run({{a, b}});
  EXPECT_EQ(recorder_.cycle_of(0x10), 7U);  // 1 + INT latency 6
}

TEST_F(SmTest, LoadUseWaitsForTheMemoryResponse) {
  auto ld = add(make_load(0x00, isa::RegRange{4, 1}, 2));
  auto use = add(make_inst(0x10, UnitClass::kIntAlu, {4}, isa::RegRange{5, 1}));
  run({{ld, use}}, 100);
  EXPECT_EQ(recorder_.cycle_of(0x00), 1U);
  EXPECT_EQ(recorder_.cycle_of(0x10), 102U);  // 1 + address generation 1 + memory 100
  EXPECT_EQ(port_->submitted, 1U);
}

TEST_F(SmTest, MatrixLoadsUseTheOpcodesRowWidthNotTheRecordedOne) {
  isa::StaticInst ldsm = make_load(0x00, isa::RegRange{4, 4}, 2);
  ldsm.op.space = isa::MemSpace::kShared;
  ldsm.mem_width_bytes = 2;  // what traces record for LDSM
  ldsm.op.access_bytes = 16;
  run({{add(ldsm)}}, 10);
  EXPECT_EQ(port_->last_bytes_per_thread, 16U);
}

TEST_F(SmTest, AddressGenerationLatencyPrecedesTheMemorySystem) {
  config_.mutable_sm()->mutable_units()->mutable_memory()->set_latency_cycles(5);
  auto ld = add(make_load(0x00, isa::RegRange{4, 1}, 2));
  auto use = add(make_inst(0x10, UnitClass::kIntAlu, {4}, isa::RegRange{5, 1}));
  run({{ld, use}}, 100);
  EXPECT_EQ(recorder_.cycle_of(0x10), 106U);
}

TEST_F(SmTest, VectorLoadBlocksEveryRegisterItWrites) {
  auto ld = add(make_load(0x00, isa::RegRange{4, 4}, 2));  // LDG.E.128 R4 -> R4..R7
  auto use_r7 = add(make_inst(0x10, UnitClass::kIntAlu, {7}, isa::RegRange{9, 1}));
  auto ld2 = add(make_load(0x20, isa::RegRange{4, 4}, 2));
  auto use_r8 = add(make_inst(0x30, UnitClass::kIntAlu, {8}, isa::RegRange{10, 1}));
  run({{ld, use_r7}, {ld2, use_r8}}, 50);
  EXPECT_EQ(recorder_.cycle_of(0x10, 0), 52U);  // R7 is written by the 128-bit load
  EXPECT_LT(recorder_.cycle_of(0x30, 1), 10U);  // R8 is not
}

TEST_F(SmTest, BarrierHoldsEarlyWarpsUntilTheLastArrives) {
  auto ffma = add(make_inst(0x00, UnitClass::kFp32, {}, isa::RegRange{1, 1}));
  auto fadd1 = add(make_inst(0x10, UnitClass::kFp32, {1}, isa::RegRange{2, 1}));
  auto fadd2 = add(make_inst(0x20, UnitClass::kFp32, {2}, isa::RegRange{3, 1}));
  auto bar = add(make_barrier(0x30));
  auto after = add(make_inst(0x40, UnitClass::kIntAlu, {}, isa::RegRange{4, 1}));
  run({{ffma, fadd1, fadd2, bar, after}, {bar, after}});
  EXPECT_EQ(recorder_.cycle_of(0x30, 0), 10U);  // 1 + 4 + 4, then one more
  EXPECT_LT(recorder_.cycle_of(0x30, 1), 5U);   // warp 1 arrives early...
  EXPECT_EQ(recorder_.cycle_of(0x40, 0), 11U);  // ...and nobody passes before cycle 11
  EXPECT_EQ(recorder_.cycle_of(0x40, 1), 12U);
  EXPECT_EQ(sm_->counters().barrier_waits, 2U);
  // Warp 1 waits at the barrier in cycles 3..10; warp 0's arrival releases it at once.
  EXPECT_EQ(cycles_in(*sm_, WarpCycleState::kBarrier), 8U);
}

TEST_F(SmTest, BarrierLatencyDelaysTheRelease) {
  config_.mutable_sm()->set_barrier_latency_cycles(20);
  auto bar = add(make_barrier(0x00));
  auto after = add(make_inst(0x10, UnitClass::kIntAlu, {}, isa::RegRange{4, 1}));
  run({{bar, after}});
  EXPECT_EQ(recorder_.cycle_of(0x10), 21U);
}

TEST_F(SmTest, CtaStaysResidentUntilItsStoresComplete) {
  isa::StaticInst st = make_inst(0x00, UnitClass::kMemory, {2, 3});
  st.op.space = isa::MemSpace::kGlobal;
  st.op.mem = isa::MemKind::kStore;
  st.mem_width_bytes = 4;
  auto store = add(st);
  run({{store}}, 50);
  EXPECT_EQ(end_cycle_, 52U);  // issue 1 + address generation 1 + 50
  EXPECT_EQ(sm_->counters().busy_cycles, 52U);
}

TEST_F(SmTest, GreedyThenOldestStaysOnOneWarp) {
  std::vector<std::uint32_t> three;
  for (std::uint64_t i = 0; i < 3; ++i) {
    three.push_back(add(make_inst(0x10 * i, UnitClass::kIntAlu, {},
                                  isa::RegRange{static_cast<std::uint16_t>(10 + i), 1})));
  }
  run({three, three});
  std::vector<unsigned> order;
  for (const auto& r : recorder_.records) order.push_back(r.warp);
  EXPECT_EQ(order, (std::vector<unsigned>{0, 0, 0, 1, 1, 1}));
  EXPECT_EQ(recorder_.records.back().cycle, 6U);
  EXPECT_EQ(cycles_in(*sm_, WarpCycleState::kNotSelected), 3U);  // warp 1 in cycles 1..3
}

TEST_F(SmTest, LooseRoundRobinAlternates) {
  config_ = testing::small_config(1, "lrr");
  std::vector<std::uint32_t> three;
  for (std::uint64_t i = 0; i < 3; ++i) {
    three.push_back(add(make_inst(0x10 * i, UnitClass::kIntAlu, {},
                                  isa::RegRange{static_cast<std::uint16_t>(10 + i), 1})));
  }
  run({three, three});
  std::vector<unsigned> order;
  for (const auto& r : recorder_.records) order.push_back(r.warp);
  EXPECT_EQ(order, (std::vector<unsigned>{0, 1, 0, 1, 0, 1}));
}

TEST_F(SmTest, SubCoresIssueInTheSameCycle) {
  config_ = testing::small_config(2);
  auto a = add(make_inst(0x00, UnitClass::kIntAlu, {}, isa::RegRange{1, 1}));
  run({{a}, {a}});
  ASSERT_EQ(recorder_.records.size(), 2U);
  EXPECT_NE(recorder_.records[0].warp % 2, recorder_.records[1].warp % 2);
  EXPECT_EQ(recorder_.records[0].cycle, recorder_.records[1].cycle);
}

TEST_F(SmTest, OpcodeLatencyOverrideReplacesTheClassLatency) {
  (*config_.mutable_sm()->mutable_opcode_latency_cycles())["FFMA"] = 9;
  const auto op = isa::OpcodeTable::get(isa::Arch::kSm70).decode("FFMA");
  ASSERT_TRUE(op.has_value());
  ExecTiming timing(config_.sm(), isa::Arch::kSm70, isa::Arch::kSm70);
  EXPECT_EQ(timing.latency(*op), 9U);
  EXPECT_EQ(timing.latency(*isa::OpcodeTable::get(isa::Arch::kSm70).decode("FADD")), 4U);
}

TEST_F(SmTest, OverridesOfAnotherGenerationsOpcodesAreSkippedTyposAreErrors) {
  (*config_.mutable_sm()->mutable_opcode_latency_cycles())["XMAD"] = 5;  // Pascal only
  EXPECT_NO_THROW(ExecTiming(config_.sm(), isa::Arch::kSm80, isa::Arch::kSm61));
  EXPECT_THROW(ExecTiming(config_.sm(), isa::Arch::kSm80, isa::Arch::kSm80), Error);
}

TEST_F(SmTest, TensorFormIntervalSpacesMatrixInstructionsAndCountsPipeBusyCycles) {
  auto* form = config_.mutable_sm()->add_tensor_ops();
  form->set_opcode("HMMA.884.F32.F32");
  form->set_latency_cycles(3);
  form->set_initiation_interval_cycles(5);
  auto hmma = make_inst(0x00, UnitClass::kTensor, {}, isa::RegRange{8, 2});
  hmma.op = *isa::OpcodeTable::get(isa::Arch::kSm70).decode("HMMA.884.F32.F32.STEP0");
  auto other = make_inst(0x10, UnitClass::kTensor, {}, isa::RegRange{12, 2});
  other.op = *isa::OpcodeTable::get(isa::Arch::kSm70).decode("HMMA.884.F16.F16.STEP0");
  auto use = make_inst(0x20, UnitClass::kFp32, {8}, isa::RegRange{20, 1});
  const auto a = add(hmma), b = add(other), c = add(use);
  run({{a, b, c}});
  EXPECT_EQ(recorder_.cycle_of(0x00), 1U);
  EXPECT_EQ(recorder_.cycle_of(0x10), 6U);  // the form's interval 5
  EXPECT_EQ(recorder_.cycle_of(0x20), 7U);  // F16 form: class interval 1; R8 ready at 1 + 3
  EXPECT_EQ(sm_->counters().tensor_busy_cycles, 6U);  // 5 + the class interval 1
}

TEST_F(SmTest, UnknownSchedulerPolicyIsAnErrorNamingTheField) {
  config_ = testing::small_config(1, "fifo");
  FixedLatencyPort port(kCycle);
  try {
    Sm sm(0, config_, port, Clock{kCycle});
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("sm.scheduler.policy"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("fifo"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace sassim::sim
