// Hopper warpgroup matrix instructions: the warpgroup collective, the in-order tensor
// pipe, asynchronous issue with busy accumulators, WARPGROUP.DEPBAR. Exact cycles
// from a config set in the test.
#include <gtest/gtest.h>

#include <memory>

#include "ground/byte_credit.h"
#include "ground/engine.h"
#include "sim/exec_timing.h"
#include "sim/sm.h"
#include "sim/warpgroup_mma.h"
#include "sim_fixtures.h"

namespace sassim::sim {
namespace {

using isa::UnitClass;
using testing::make_cta;
using testing::make_inst;

constexpr Picos kCycle = 1000;

TEST(WarpgroupMmaPipe, StartsWhenTheLastMemberIssuedAndRunsInOrder) {
  WarpgroupMmaPipe pipe(2, kWarpgroupsPerCta);
  const WarpgroupMmaPipe::Timing t{40, 16, 0};
  EXPECT_FALSE(pipe.arrive(0, 0, 0, 4, 10, 0, t));
  EXPECT_FALSE(pipe.arrive(0, 0, 1, 4, 11, 0, t));
  EXPECT_FALSE(pipe.arrive(0, 0, 1, 4, 12, 0, t));  // member 1's second wgmma
  EXPECT_FALSE(pipe.arrive(0, 0, 2, 4, 13, 0, t));
  auto first = pipe.arrive(0, 0, 3, 4, 20, 0, t);
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(first->start, 20U);  // the cycle the last member issued
  EXPECT_EQ(first->done, 60U);   // + latency 40
  // Another warpgroup's operation waits for the interval of the first.
  EXPECT_FALSE(pipe.arrive(1, 0, 0, 2, 21, 0, t));
  auto other = pipe.arrive(1, 0, 1, 2, 22, 0, t);
  ASSERT_TRUE(other.has_value());
  EXPECT_EQ(other->start, 36U);  // 20 + 16
  EXPECT_EQ(pipe.busy_cycles(), 32U);
  EXPECT_EQ(pipe.operations(), 2U);
  // A new CTA in slot 0 starts from a clean state.
  pipe.reset_cta(0);
  EXPECT_FALSE(pipe.arrive(0, 0, 0, 2, 100, 0, t));
}

// A shared data path of 128 bytes per cycle, as the L1's byte credit.
class DataPathPort final : public memsys::SmMemoryPort {
 public:
  bool can_accept(Picos /*now*/) const override { return false; }
  void submit(const memsys::WarpMemAccess& /*access*/, Picos /*now*/) override {}
  std::optional<std::uint32_t> pop_completed(Picos /*now*/) override { return std::nullopt; }
  Picos next_completion_ps() const override { return kNever; }
  std::uint32_t outstanding() const override { return 0; }
  std::uint64_t read_tensor_operands(std::uint32_t bytes, Picos now) override {
    credit_.refill(now / kCycle);
    return credit_.consume(bytes);
  }

 private:
  ByteCredit credit_{128};
};

TEST(WarpgroupMmaPipe, SharedOperandBandwidthLimitsTheStartRate) {
  WarpgroupMmaPipe pipe(1, kWarpgroupsPerCta);
  DataPathPort port;
  pipe.set_shared_data_path(&port, 128);
  // 64x64x16 BF16: 4096 bytes = 32 cycles at 128 B/cycle, interval 8.
  const WarpgroupMmaPipe::Timing t{32, 8, 4096};
  auto a = pipe.arrive(0, 0, 0, 1, 0, 0, t);
  auto b = pipe.arrive(0, 0, 0, 1, 0, 0, t);
  auto c = pipe.arrive(0, 0, 0, 1, 0, 0, t);
  ASSERT_TRUE(a && b && c);
  EXPECT_EQ(a->start, 0U);
  EXPECT_EQ(b->start, 32U);  // its operands are read after the first one's
  EXPECT_EQ(c->start, 64U);
  EXPECT_EQ(pipe.shared_bytes(), 3U * 4096U);
  // 96 cycles later the path is free again; operands from registers take nothing.
  auto d = pipe.arrive(0, 0, 0, 1, 200, 200 * kCycle, t);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->start, 200U);
}

// One SM of four sub-cores running one CTA of sm_90 warps.
class WarpgroupSmTest : public ::testing::Test {
 protected:
  void SetUp() override { config_ = testing::hopper_config(); }
  isa::StaticInst decoded(std::uint64_t pc, std::string_view text, std::vector<std::uint16_t> src,
                          std::optional<isa::RegRange> dst) {
    isa::StaticInst s = make_inst(pc, UnitClass::kMisc, std::move(src), dst);
    s.op = *isa::OpcodeTable::get(isa::Arch::kSm90).decode(text);
    return s;
  }
  // HGMMA.64xNx16.F32.BF16 into R24.. (N/2 registers), reading the accumulator.
  std::uint32_t hgmma(std::uint64_t pc, unsigned n = 64, std::vector<std::uint16_t> extra = {}) {
    std::vector<std::uint16_t> src = {24};
    src.insert(src.end(), extra.begin(), extra.end());
    return statics_.add(decoded(pc, "HGMMA.64x" + std::to_string(n) + "x16.F32.BF16", src,
                                isa::RegRange{24, static_cast<std::uint8_t>(n / 2)}));
  }
  std::uint32_t fadd(std::uint64_t pc, std::uint16_t src, std::uint16_t dst) {
    return statics_.add(decoded(pc, "FADD", {src}, isa::RegRange{dst, 1}));
  }
  std::uint32_t depbar(std::uint64_t pc) {
    return statics_.add(decoded(pc, "WARPGROUP.DEPBAR.LE", {}, std::nullopt));
  }
  void run(const std::vector<std::vector<std::uint32_t>>& warps) {
    info_.arch = isa::Arch::kSm90;
    const auto n = static_cast<std::uint32_t>(warps.size());
    info_.block = {32 * n, 1, 1};
    timing_ = std::make_unique<ExecTiming>(config_.sm(), info_.arch, info_.arch);
    context_.info = &info_;
    context_.statics = &statics_;
    context_.timing = timing_.get();
    context_.cta = {32 * n, n, 0, 0};
    port_ = std::make_unique<testing::FixedLatencyPort>(100 * kCycle);
    sm_ = std::make_unique<Sm>(0, config_, *port_, Clock{kCycle});
    sm_->set_issue_observer(&recorder_);
    sm_->set_warp_state_accounting(WarpStateAccounting::kChecked);  // throws on a stale state
    Engine engine(Clock{kCycle}, Clock{kCycle}, Clock{kCycle}, 10000);
    engine.add(ClockDomain::kCore, sm_.get());
    sm_->accept(make_cta(statics_, warps), context_, 0);
    engine.run_until([&] { return !sm_->busy(); });
  }

  config::GpuConfig config_;
  traces::KernelInfo info_;
  traces::StaticInstTable statics_;
  std::unique_ptr<ExecTiming> timing_;
  KernelContext context_;
  std::unique_ptr<testing::FixedLatencyPort> port_;
  std::unique_ptr<Sm> sm_;
  testing::IssueRecorder recorder_;
};

TEST_F(WarpgroupSmTest, TimingComesFromThePerNEntry) {
  const ExecTiming timing(config_.sm(), isa::Arch::kSm90, isa::Arch::kSm90);
  const auto& table = isa::OpcodeTable::get(isa::Arch::kSm90);
  EXPECT_EQ(timing.latency(*table.decode("HGMMA.64x64x16.F32.BF16")), 32U);
  EXPECT_EQ(timing.latency(*table.decode("HGMMA.64x256x16.F32.BF16")), 128U);
  EXPECT_EQ(timing.latency(*table.decode("HGMMA.64x8x16.F32.BF16")), 20U);  // the floor
  EXPECT_EQ(timing.interval(*table.decode("HGMMA.64x128x16.F32.BF16")), 32U);
  EXPECT_EQ(timing.interval(*table.decode("HGMMA.64x8x16.F32.BF16")), 4U);
}

TEST_F(WarpgroupSmTest, AccumulatorReaderWaitsOthersContinue) {
  const auto mma = hgmma(0x00);
  const auto independent = fadd(0x10, 2, 3);
  const auto reader = fadd(0x20, 30, 4);  // R30 is in the accumulator R24..R55
  run({{mma, independent, reader},
       {mma, independent, reader},
       {mma, independent, reader},
       {mma, independent, reader}});
  // All four issue at cycle 1 on their sub-cores; the operation starts then and
  // writes the accumulator at 1 + 32 (N = 64).
  for (unsigned w = 0; w < 4; ++w) {
    EXPECT_EQ(recorder_.cycle_of(0x00, w), 1U) << w;
    EXPECT_EQ(recorder_.cycle_of(0x10, w), 2U) << w;  // the warp continues
    EXPECT_EQ(recorder_.cycle_of(0x20, w), 33U) << w;
  }
  EXPECT_EQ(sm_->counters().tensor_busy_cycles, 4U * 16U);  // interval N/4 on 4 sub-cores
  EXPECT_EQ(sm_->counters().tensor_flops[static_cast<std::size_t>(isa::MmaType::kBf16)],
            2.0 * 64 * 64 * 16);
}

TEST_F(WarpgroupSmTest, OperationStartsWhenTheLastWarpIssues) {
  const auto mma = hgmma(0x00);
  const auto reader = fadd(0x20, 30, 4);
  const auto slow = fadd(0x30, 2, 2);  // FADD chain on R2: FP32 latency 4
  run({{mma, reader}, {mma, reader}, {mma, reader}, {slow, slow, slow, mma, reader}});
  EXPECT_EQ(recorder_.cycle_of(0x00, 3), 10U);  // after the FADDs at 1, 5, 9
  for (unsigned w = 0; w < 4; ++w) EXPECT_EQ(recorder_.cycle_of(0x20, w), 10U + 32U) << w;
}

TEST_F(WarpgroupSmTest, BackToBackOnOneAccumulatorPipelineAndDepbarWaitsForTheLast) {
  // Two HGMMA on R24 do not wait for each other: the second starts one interval
  // (16) after the first (at 1); DEPBAR then holds the warp until the second is done.
  const auto a = hgmma(0x00);
  const auto b = hgmma(0x10);
  const auto wait = depbar(0x20);
  const auto after = fadd(0x30, 2, 3);
  std::vector<std::uint32_t> body = {a, b, wait, after};
  run({body, body, body, body});
  for (unsigned w = 0; w < 4; ++w) {
    EXPECT_EQ(recorder_.cycle_of(0x10, w), 2U) << w;
    EXPECT_EQ(recorder_.cycle_of(0x20, w), 3U) << w;
    EXPECT_EQ(recorder_.cycle_of(0x30, w), 1U + 16U + 32U) << w;
  }
}

TEST_F(WarpgroupSmTest, DepbarWaitsForAnOperationNotYetStarted) {
  const auto mma = hgmma(0x00);
  const auto wait = depbar(0x20);
  const auto after = fadd(0x30, 2, 3);
  const auto slow = fadd(0x40, 5, 5);
  // Warps 0-2 reach DEPBAR before warp 3 issued the HGMMA (at 14, after FADDs at
  // 1, 5, 9, 13).
  run({{mma, wait, after},
       {mma, wait, after},
       {mma, wait, after},
       {slow, slow, slow, slow, mma, wait, after}});
  for (unsigned w = 0; w < 4; ++w) EXPECT_EQ(recorder_.cycle_of(0x30, w), 14U + 32U) << w;
}

TEST_F(WarpgroupSmTest, ARegistersFromALoadAreWaitedFor) {
  // A from registers (R100, outside the accumulator): the HGMMA waits for its producer.
  const auto produce = fadd(0x00, 2, 100);
  const auto mma = hgmma(0x10, 64, {100});
  const auto reader = fadd(0x20, 24, 4);
  std::vector<std::uint32_t> body = {produce, mma, reader};
  run({body, body, body, body});
  EXPECT_EQ(recorder_.cycle_of(0x10, 0), 5U);
  EXPECT_EQ(recorder_.cycle_of(0x20, 0), 5U + 32U);
}

}  // namespace
}  // namespace sassim::sim
