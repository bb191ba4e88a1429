// Control-bit mode on a real listing: one warp of sm_80 vectoradd issues exactly as the
// stall counts and scoreboards of kernels/sass/sm_80/vectoradd.sass say, and a trace
// that does not match the listing is an error naming both files.
#include "sim/control_bits.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include <fmt/format.h>
#include <vector>

#include "ground/engine.h"
#include "ground/error.h"
#include "sim/exec_timing.h"
#include "sim/sm.h"
#include "sim_fixtures.h"
#include "traces/sass/listing.h"
#include "traces/text_trace.h"

namespace sassim::sim {
namespace {

using testing::FixedLatencyPort;
using ::testing::HasSubstr;
using testing::IssueRecorder;

constexpr Picos kCycle = 1000;  // 1 GHz core clock in small_config()
const std::string kListing = std::string(SASSIM_SOURCE_DIR) + "/kernels/sass/sm_80/vectoradd.sass";

// One warp of vectoradd on the path that does not exit early: the listing's PCs and
// opcodes, two loads of 32 consecutive floats and one store.
const std::vector<std::string> kVectoraddWarp = {
    "0000 ffffffff 1 R1 MOV 0 0",
    "0010 ffffffff 1 R6 S2R 0 0",
    "0020 ffffffff 1 R3 S2R 0 0",
    "0030 ffffffff 1 R6 IMAD 2 R6 R3 0",
    "0040 ffffffff 0 ISETP.GE.U32.AND 1 R6 0",
    "0050 ffffffff 0 EXIT 0 0",
    "0060 ffffffff 1 R7 HFMA2.MMA 0 0",
    "0070 ffffffff 0 ULDC.64 0 0",
    "0080 ffffffff 1 R4 IMAD.WIDE.U32 2 R6 R7 0",
    "0090 ffffffff 1 R2 IMAD.WIDE.U32 2 R6 R7 0",
    "00a0 ffffffff 1 R4 LDG.E.CONSTANT 1 R4 4 1 0x7f0000001000 4",
    "00b0 ffffffff 1 R3 LDG.E.CONSTANT 1 R2 4 1 0x7f0000002000 4",
    "00c0 ffffffff 1 R6 IMAD.WIDE.U32 2 R6 R7 0",
    "00d0 ffffffff 1 R9 FADD 2 R4 R3 0",
    "00e0 ffffffff 0 STG.E 2 R6 R9 4 1 0x7f0000003000 4",
    "00f0 ffffffff 0 EXIT 0 0",
};

// A kernel "vectoradd" of one CTA whose warps run the given trace lines.
std::string trace_text(const std::vector<std::vector<std::string>>& warps) {
  std::string t = "-kernel name = vectoradd\n-kernel id = 1\n-grid dim = (1,1,1)\n-block dim = (" +
                  std::to_string(32 * warps.size()) +
                  ",1,1)\n"
                  "-shmem = 0\n-nregs = 12\n-binary version = 80\n-cuda stream id = 0\n"
                  "-shmem base_addr = 0x00007f2b5a000000\n-local mem base_addr = "
                  "0x00007f2b58000000\n-nvbit version = 1.5.5\n-accelsim tracer version = 4\n"
                  "-enable lineinfo = 0\n\n#BEGIN_TB\n\nthread block = 0,0,0\n";
  for (std::size_t w = 0; w < warps.size(); ++w) {
    t += "\nwarp = " + std::to_string(w) + "\ninsts = " + std::to_string(warps[w].size()) + "\n";
    for (const std::string& l : warps[w]) t += l + "\n";
  }
  return t + "#END_TB\n";
}

class ControlBitsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    config_ = testing::small_config();
    config_.set_arch("sm_80");
    // S2R answers after 20 cycles, so that the IMAD waiting on SB0 visibly waits.
    (*config_.mutable_sm()->mutable_opcode_latency_cycles())["S2R"] = 20;
    listings_.push_back(traces::sass::read_listing(kListing));
  }

  // Runs the trace's one CTA on one SM with a memory latency of `memory_cycles`.
  void run(const std::vector<std::string>& lines, Picos memory_cycles = 100) {
    run_warps({lines}, memory_cycles);
  }
  void run_warps(const std::vector<std::vector<std::string>>& warps, Picos memory_cycles = 100) {
    kernel_ = traces::kernel_from_text(trace_text(warps), "vectoradd.traceg");
    const traces::KernelInfo& info = kernel_->info();
    timing_ = std::make_unique<ExecTiming>(config_.sm(), info.arch, isa::Arch::kSm80);
    control_ = make_control_bits(listings_, info);
    ASSERT_NE(control_, nullptr);
    context_.info = &info;
    context_.statics = &kernel_->statics();
    context_.timing = timing_.get();
    context_.control = control_.get();
    const auto n = static_cast<std::uint32_t>(warps.size());
    context_.cta = {32 * n, n, 0, 0};
    auto cta = kernel_->next_cta();
    control_->extend(*kernel_);
    port_ = std::make_unique<FixedLatencyPort>(memory_cycles * kCycle);
    sm_ = std::make_unique<Sm>(0, config_, *port_, Clock{kCycle});
    sm_->set_issue_observer(&recorder_);
    sm_->set_warp_state_accounting(WarpStateAccounting::kChecked);  // throws on a stale state
    Engine engine(Clock{kCycle}, Clock{kCycle}, Clock{kCycle}, 10000);
    engine.add(ClockDomain::kCore, sm_.get());
    sm_->accept(std::move(*cta), context_, 0);
    engine.run_until([&] { return !sm_->busy(); });
  }

  std::uint64_t cycles_in(WarpCycleState state) const {
    return sm_->counters().warp_cycles[static_cast<std::size_t>(state)];
  }

  config::GpuConfig config_;
  std::vector<traces::sass::Listing> listings_;
  std::unique_ptr<traces::KernelTrace> kernel_;
  std::unique_ptr<ExecTiming> timing_;
  std::unique_ptr<ControlBitsTable> control_;
  KernelContext context_;
  std::unique_ptr<FixedLatencyPort> port_;
  std::unique_ptr<Sm> sm_;
  IssueRecorder recorder_;
};

TEST_F(ControlBitsTest, StallCountsAndScoreboardsOfVectoradd) {
  run(kVectoraddWarp, 100);
  // Control words of the listing (high word >> 41; see tests/traces/sass_listing_test.cc):
  //   PC    stall  write SB  wait mask
  //   0000  2
  //   0010  4      SB0                     S2R: SB0 released 20 cycles after issue
  //   0020  2      SB0
  //   0030  5                SB0
  //   0040  13
  //   0050  5
  //   0060  1
  //   0070  9
  //   0080  4
  //   0090  2
  //   00a0  4      SB2                     LDG: SB2 released when the data returns
  //   00b0  1      SB2
  //   00c0  4
  //   00d0  5                SB2
  //   00e0  1
  // The first issue is at cycle 1 (CTA launch latency 0 -> 1). Each next issue is the
  // previous one plus its stall, except:
  //   0030: SB0 is zero only at max(3, 7) + 20 = 27 (not 7 + 2 = 9);
  //   00d0: SB2 holds the two loads; the later, issued at 70, returns after one cycle of
  //         address generation and 100 cycles of memory: 70 + 1 + 100 = 171 (not 75).
  const std::vector<std::pair<std::uint64_t, std::uint64_t>> expected = {
      {0x00, 1},  {0x10, 3},   {0x20, 7},   {0x30, 27}, {0x40, 32}, {0x50, 45},
      {0x60, 50}, {0x70, 51},  {0x80, 60},  {0x90, 64}, {0xa0, 66}, {0xb0, 70},
      {0xc0, 71}, {0xd0, 171}, {0xe0, 176}, {0xf0, 177}};
  for (auto [pc, cycle] : expected) EXPECT_EQ(recorder_.cycle_of(pc), cycle) << std::hex << pc;
  // Waiting on SB0 (set by S2R) is a short scoreboard, from the issue at 7 to 26; on SB2
  // (set by global loads) a long scoreboard, from the issue at 71 to 170.
  EXPECT_EQ(cycles_in(WarpCycleState::kShortScoreboard), 19U);
  EXPECT_EQ(cycles_in(WarpCycleState::kLongScoreboard), 99U);
  EXPECT_EQ(cycles_in(WarpCycleState::kSelected), 16U);
}

TEST_F(ControlBitsTest, ShorterMemoryLatencyMovesOnlyTheLoadWait) {
  run(kVectoraddWarp, 30);
  EXPECT_EQ(recorder_.cycle_of(0xc0), 71U);
  EXPECT_EQ(recorder_.cycle_of(0xd0), 70U + 1 + 30);
}

// Three NOPs of stall 1, with the yield hint (control word 0x01: bit 4 clear, the hint is
// stored inverted) or without (0x11).
traces::sass::Listing nops(bool yield) {
  const char* high = yield ? "0x0000020000000000" : "0x0000220000000000";
  std::string text = "        .global         vectoradd\nvectoradd:\n";
  for (int pc = 0; pc < 0x30; pc += 0x10) {
    text += fmt::format("        /*{:04x}*/  NOP ;  /* 0x0000000000007918 */\n", pc);
    text += fmt::format("                          /* {} */\n", high);
  }
  return traces::sass::parse_listing(text, "nops.sass");
}

const std::vector<std::string> kThreeNops = {"0000 ffffffff 0 NOP 0 0", "0010 ffffffff 0 NOP 0 0",
                                             "0020 ffffffff 0 NOP 0 0"};

TEST_F(ControlBitsTest, WithoutYieldTheOldestWarpKeepsIssuing) {
  listings_ = {nops(false)};
  run_warps({kThreeNops, kThreeNops});  // one sub-core, greedy-then-oldest
  EXPECT_EQ(recorder_.cycle_of(0x20, 0), 3U);
  EXPECT_EQ(recorder_.cycle_of(0x00, 1), 4U);
}

TEST_F(ControlBitsTest, YieldGivesTheNextCycleToAnotherWarp) {
  listings_ = {nops(true)};
  run_warps({kThreeNops, kThreeNops});
  // Warps 0 and 1 alternate: 0 at 1, 3, 5; 1 at 2, 4, 6.
  for (unsigned i = 0; i < 3; ++i) {
    EXPECT_EQ(recorder_.cycle_of(0x10 * i, 0), 1 + 2 * i);
    EXPECT_EQ(recorder_.cycle_of(0x10 * i, 1), 2 + 2 * i);
  }
}

TEST_F(ControlBitsTest, TracePcMissingFromTheListingIsAnError) {
  std::vector<std::string> lines = kVectoraddWarp;
  lines[1] = "0018 ffffffff 1 R6 S2R 0 0";
  try {
    run(lines);
    FAIL() << "no error";
  } catch (const Error& e) {
    // Line 22 of the trace text holds the instruction; the function starts at line 12.
    EXPECT_THAT(e.what(), HasSubstr("vectoradd.traceg:22: S2R at PC 0x0018 of kernel vectoradd: "
                                    "expected an instruction at that PC in the listing of "
                                    "vectoradd (" +
                                    kListing + ":12)"));
  }
}

TEST_F(ControlBitsTest, OpcodeDifferingFromTheListingIsAnError) {
  std::vector<std::string> lines = kVectoraddWarp;
  lines[3] = "0030 ffffffff 1 R6 FFMA 2 R6 R3 0";
  try {
    run(lines);
    FAIL() << "no error";
  } catch (const Error& e) {
    // vectoradd.sass line 20: "/*0030*/ IMAD R6, R6, c[0x0][0x0], R3 ;"
    EXPECT_THAT(e.what(), HasSubstr("vectoradd.traceg:24: FFMA at PC 0x0030 of kernel vectoradd, "
                                    "but " +
                                    kListing + ":20 has IMAD there"));
  }
}

TEST_F(ControlBitsTest, KernelWithoutAListingKeepsTheRegisterScoreboard) {
  traces::KernelInfo other;
  other.name = "saxpy";
  EXPECT_EQ(make_control_bits(listings_, other), nullptr);
}

}  // namespace
}  // namespace sassim::sim
