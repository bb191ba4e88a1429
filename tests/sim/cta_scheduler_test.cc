// CTA placement: occupancy limits, round-robin spread, refill on retirement.
#include <gtest/gtest.h>

#include "ground/engine.h"
#include "sim/cta_scheduler.h"
#include "sim/exec_timing.h"
#include "sim_fixtures.h"

namespace sassim::sim {
namespace {

using testing::FixedLatencyPort;
using testing::IssueRecorder;
using testing::make_cta;
using testing::make_inst;

constexpr Picos kCycle = 1000;

// A kernel whose CTAs all run the same single-warp instruction list.
class RepeatedCtaKernel final : public traces::KernelTrace {
 public:
  RepeatedCtaKernel(std::uint32_t ctas, std::vector<isa::StaticInst> insts) : remaining_(ctas) {
    info_.arch = isa::Arch::kSm70;
    info_.grid = {ctas, 1, 1};
    info_.block = {32, 1, 1};
    info_.nregs = 32;
    for (const auto& i : insts) indices_.push_back(statics_.add(i));
  }
  const traces::KernelInfo& info() const override { return info_; }
  const traces::StaticInstTable& statics() const override { return statics_; }
  std::optional<traces::CtaTrace> next_cta() override {
    if (remaining_ == 0) return std::nullopt;
    --remaining_;
    ++read_;
    return make_cta(statics_, {indices_});
  }
  std::uint32_t read() const { return read_; }

 private:
  traces::KernelInfo info_;
  traces::StaticInstTable statics_;
  std::vector<std::uint32_t> indices_;
  std::uint32_t remaining_, read_ = 0;
};

struct Placement {
  std::vector<std::unique_ptr<FixedLatencyPort>> ports;
  std::vector<std::unique_ptr<Sm>> sms;
  std::vector<IssueRecorder> recorders;
  std::uint64_t end_cycle = 0;
};

// One CTA = one warp running a chain of three dependent INT instructions (latency 6,
// interval 1): issues at +1, +7, +13 after placement, retires at +14.
Placement place(std::uint32_t num_sms, std::uint32_t max_ctas, std::uint32_t ctas,
                std::uint32_t max_warps = 64, std::uint32_t dispatch_interval = 0) {
  config::GpuConfig config = testing::small_config();
  config.mutable_sm()->set_max_ctas(max_ctas);
  config.mutable_sm()->set_max_warps(max_warps);
  RepeatedCtaKernel kernel(ctas,
                           {make_inst(0x0, isa::UnitClass::kIntAlu, {}, isa::RegRange{1, 1}),
                            make_inst(0x10, isa::UnitClass::kIntAlu, {1}, isa::RegRange{2, 1}),
                            make_inst(0x20, isa::UnitClass::kIntAlu, {2}, isa::RegRange{3, 1})});
  ExecTiming timing(config.sm(), isa::Arch::kSm70, isa::Arch::kSm70);
  KernelContext context{&kernel.info(), &kernel.statics(), &timing, {32, 1, 32 * 32, 0}, 0, 0};
  Placement p;
  p.recorders.resize(num_sms);
  Engine engine(Clock{kCycle}, Clock{kCycle}, Clock{kCycle}, 10000);
  std::vector<Sm*> raw;
  for (std::uint32_t i = 0; i < num_sms; ++i) {
    p.ports.push_back(std::make_unique<FixedLatencyPort>(kCycle));
    p.sms.push_back(std::make_unique<Sm>(i, config, *p.ports.back(), Clock{kCycle}));
    p.sms.back()->set_issue_observer(&p.recorders[i]);
    raw.push_back(p.sms.back().get());
    engine.add(ClockDomain::kCore, raw.back());
  }
  CtaScheduler scheduler(raw, Clock{kCycle}, dispatch_interval);
  engine.add(ClockDomain::kCore, &scheduler);
  scheduler.start_kernel(kernel, context);
  engine.run_until([&] { return scheduler.kernel_done(context); });
  EXPECT_EQ(kernel.read(), ctas);
  EXPECT_EQ(scheduler.ctas_placed(), ctas);
  p.end_cycle = engine.cycle(ClockDomain::kCore);
  return p;
}

TEST(CtaScheduler, SpreadsASmallGridOverAllSms) {
  Placement p = place(4, 8, 4);
  for (const auto& sm : p.sms) EXPECT_EQ(sm->counters().ctas, 1U);
  // All four start in the first cycle after placement.
  for (const auto& r : p.recorders) EXPECT_EQ(r.records.front().cycle, 2U);
}

TEST(CtaScheduler, ADispatchIntervalSpacesPlacementsOnTheWholeGpu) {
  constexpr std::uint32_t kInterval = 5;
  Placement p = place(4, 8, 4, 64, kInterval);
  // One CTA per SM, round robin, kInterval cycles apart: first issues at 2, 7, 12, 17.
  for (std::size_t i = 0; i < p.recorders.size(); ++i) {
    EXPECT_EQ(p.recorders[i].records.front().cycle, 2U + kInterval * i) << "SM " << i;
  }
}

TEST(CtaScheduler, HonoursTheCtaSlotLimitAndRefillsOnRetirement) {
  Placement p = place(1, 2, 6);
  EXPECT_EQ(p.sms[0]->counters().ctas, 6U);
  // Two CTAs at a time, three waves.
  std::vector<std::uint64_t> starts;
  for (const auto& r : p.recorders[0].records) {
    if (r.pc == 0) starts.push_back(r.cycle);
  }
  ASSERT_EQ(starts.size(), 6U);
  EXPECT_EQ(starts[0], starts[1] - 1);   // one CTA per SM per cycle
  EXPECT_GT(starts[2], starts[0] + 12);  // third CTA waits for a retirement
  EXPECT_GT(starts[4], starts[2] + 12);
}

TEST(CtaScheduler, WarpSlotLimitBoundsOccupancy) {
  // Four warp slots, 1-warp CTAs: the fifth CTA waits for the first to retire.
  Placement p = place(1, 32, 8, 4);
  std::vector<std::uint64_t> starts, ends;
  for (const auto& r : p.recorders[0].records) {
    if (r.pc == 0) starts.push_back(r.cycle);
    if (r.pc == 0x20) ends.push_back(r.cycle);
  }
  ASSERT_EQ(starts.size(), 8U);
  EXPECT_LT(starts[3], ends[0]);  // four resident together
  EXPECT_GT(starts[4], ends[0]);  // not before a warp slot is free
  EXPECT_EQ(p.sms[0]->counters().ctas, 8U);
}

}  // namespace
}  // namespace sassim::sim
