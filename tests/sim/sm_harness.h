#pragma once
// Runs one CTA written as Accel-Sim trace text (sm_70 unless told otherwise) on one
// SM of testing::small_config() against a fixed-latency memory port, recording
// every issue.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "ground/engine.h"
#include "sim/control_bits.h"
#include "sim/exec_timing.h"
#include "sim/register_file.h"
#include "sim/sm.h"
#include "sim_fixtures.h"
#include "tests/traces/trace_text.h"
#include "traces/sass/listing.h"
#include "traces/text_trace.h"

namespace sassim::sim::testing {

// One warp's part of a CTA: "warp = <n>", its instruction count and lines
// ("PC mask ndst [dsts] OPCODE nsrc [srcs] mem_width [addresses]").
inline std::string warp_text(int warp, const std::vector<std::string>& lines) {
  std::string s = fmt::format("warp = {}\ninsts = {}\n", warp, lines.size());
  for (const std::string& l : lines) s += l + "\n";
  return s;
}

// Independent loads of the given opcodes at PCs 0x00, 0x10, ... into R4, R5, ..., each
// addressed by R2 (one address a line).
inline std::vector<std::string> independent_loads(const std::vector<std::string>& opcodes) {
  std::vector<std::string> lines;
  for (std::size_t i = 0; i < opcodes.size(); ++i) {
    lines.push_back(fmt::format("{:04x} ffffffff 1 R{} {} 1 R2 4 1 0x{:x} 4", 0x10 * i, 4 + i,
                                opcodes[i], 0x100 * (i + 1)));
  }
  return lines;
}

class SmHarness : public ::testing::Test {
 protected:
  static constexpr Picos kCycle = 1000;  // 1 GHz core clock in small_config()

  void SetUp() override { config_ = small_config(); }

  // The memory pipe takes one instruction per `cycles`.
  void set_memory_interval(std::uint32_t cycles) {
    config_.mutable_sm()->mutable_units()->mutable_memory()->set_initiation_interval_cycles(cycles);
  }
  config::FrontendConfig& frontend() { return *config_.mutable_sm()->mutable_frontend(); }
  config::ControlFlowConfig& control_flow() {
    return *config_.mutable_sm()->mutable_control_flow();
  }

  // Runs a CTA of `warps` (warp_text() parts) until it retires.
  void run(const std::vector<std::string>& warps, Picos memory_latency_cycles = 100,
           int binary_version = 70) {
    const auto threads = static_cast<std::uint32_t>(32 * warps.size());
    std::string text = traces::trace_text::header({.name = "k",
                                                   .binary_version = std::to_string(binary_version),
                                                   .grid = "(1,1,1)",
                                                   .block = fmt::format("({},1,1)", threads),
                                                   .nregs = "16",
                                                   .shmem_base = "0x00007f0000000000",
                                                   .local_base = "0x00007e0000000000"}) +
                       "#BEGIN_TB\n\nthread block = 0,0,0\n\n";
    for (const std::string& w : warps) text += w + "\n";
    text += "#END_TB\n";
    kernel_ = traces::kernel_from_text(text, "test.traceg");
    std::optional<traces::CtaTrace> cta = kernel_->next_cta();
    ASSERT_TRUE(cta.has_value());
    const traces::KernelInfo& info = kernel_->info();
    timing_ = std::make_unique<ExecTiming>(config_.sm(), info.arch, info.arch);
    context_.info = &info;
    context_.statics = &kernel_->statics();
    context_.timing = timing_.get();
    context_.cta = {threads, static_cast<std::uint32_t>(warps.size()), 0, 0};
    // As the CTA scheduler does: control bits when a listing has the kernel, register
    // read costs when the config models banks.
    control_ = make_control_bits(listings_, info);
    context_.control = control_.get();
    if (control_ != nullptr) control_->extend(*kernel_);
    if (RegisterReadTable::enabled(config_.sm())) {
      register_reads_ = std::make_unique<RegisterReadTable>(config_.sm().register_file());
      register_reads_->extend(kernel_->statics());
      context_.register_reads = register_reads_.get();
    }
    port_ = std::make_unique<FixedLatencyPort>(memory_latency_cycles * kCycle, port_capacity_,
                                               write_ack_cycles_ * kCycle);
    sm_ = std::make_unique<Sm>(0, config_, *port_, Clock{kCycle});
    sm_->set_issue_observer(&recorder_);
    sm_->set_warp_state_accounting(WarpStateAccounting::kChecked);  // throws on a stale state
    Engine engine(Clock{kCycle}, Clock{kCycle}, Clock{kCycle}, 10000);
    engine.add(ClockDomain::kCore, sm_.get());
    sm_->accept(std::move(*cta), context_, 0);
    engine.run_until([&] { return !sm_->busy(); });
    end_cycle_ = engine.cycle(ClockDomain::kCore);
  }

  std::uint64_t cycles_in(WarpCycleState state) const {
    return sm_->counters().warp_cycles[static_cast<std::size_t>(state)];
  }

  config::GpuConfig config_;
  std::size_t port_capacity_ = 64;  // accesses the memory port holds at once
  Picos write_ack_cycles_ = 0;      // > 0: the port acknowledges writes this long after submission
  std::unique_ptr<traces::KernelTrace> kernel_;
  std::unique_ptr<ExecTiming> timing_;
  std::vector<traces::sass::Listing> listings_;  // control-bit mode for kernel "k"
  std::unique_ptr<ControlBitsTable> control_;
  std::unique_ptr<RegisterReadTable> register_reads_;
  KernelContext context_;
  std::unique_ptr<FixedLatencyPort> port_;
  std::unique_ptr<Sm> sm_;
  IssueRecorder recorder_;
  std::uint64_t end_cycle_ = 0;
};

}  // namespace sassim::sim::testing
