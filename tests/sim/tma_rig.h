#pragma once
// Runs one Hopper CTA written as tracer-version-5 text on one SM whose memory port
// is a mock: a real TmaEngine whose L2 answers every read `l2_cycles` after it was
// sent and acknowledges every write or reduction that asks for it `ack_cycles` after
// it was sent, a shared-memory data path unlimited for the engine (and for the accesses
// of other SMs unless limit_remote_shared() is called), and other accesses completing
// after a fixed latency. Records every issue.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "ground/byte_credit.h"
#include "ground/engine.h"
#include "memsys/tma_engine.h"
#include "sim/control_bits.h"
#include "sim/cta_scheduler.h"
#include "sim/exec_timing.h"
#include "sim/gpc_layout.h"
#include "sim/sm.h"
#include "sim_fixtures.h"
#include "sm_harness.h"
#include "tests/traces/trace_text.h"
#include "traces/text_trace.h"

namespace sassim::sim::testing {

class TmaMockPort final : public memsys::SmMemoryPort,
                          public ClockedUnit,
                          public memsys::TmaNeighbours {
 public:
  TmaMockPort(const config::TmaConfig& tma, std::uint64_t l2_cycles, std::uint64_t ack_cycles,
              Clock clock)
      : clock_(clock),
        l2_cycles_(l2_cycles),
        ack_cycles_(ack_cycles),
        engine_(0, tma, 128, 32, clock, *this) {}

  // SmMemoryPort: plain accesses complete l2_cycles after submission.
  bool can_accept(Picos /*now*/) const override { return true; }
  void submit(const memsys::WarpMemAccess& access, Picos now) override {
    completions_.emplace(now + clock_.edge(l2_cycles_), access.token);
  }
  std::optional<std::uint32_t> pop_completed(Picos now) override {
    if (completions_.empty() || completions_.begin()->first > now) return std::nullopt;
    const std::uint32_t token = completions_.begin()->second;
    completions_.erase(completions_.begin());
    return token;
  }
  Picos next_completion_ps() const override {
    return completions_.empty() ? kNever : completions_.begin()->first;
  }
  std::uint32_t outstanding() const override {
    return static_cast<std::uint32_t>(completions_.size()) + engine_.copies_in_flight();
  }
  // Accesses of other SMs to this SM's shared memory take a data path of
  // `bytes_per_cycle` (as memsys::L1Unit's) from now on.
  void limit_remote_shared(std::uint32_t bytes_per_cycle) {
    data_path_ = ByteCredit(bytes_per_cycle);
    limited_ = true;
  }
  std::uint64_t remote_shared_access(std::uint32_t bytes, Picos now) override {
    if (!limited_) return 0;
    const std::uint64_t cycle = now / clock_.period_ps;
    data_path_.refill(cycle);
    const std::uint64_t wait = data_path_.available() ? 0 : data_path_.next_available() - cycle;
    data_path_.consume(bytes);
    return wait;
  }
  std::uint64_t remote_shared_write(std::uint32_t bytes, Picos now) override {
    if (!limited_) return 0;
    data_path_.refill(now / clock_.period_ps);
    return data_path_.consume(bytes);
  }
  bool submit_tma(const memsys::TmaCopy& copy, Picos now) override {
    submitted_at.push_back(now / clock_.period_ps);
    engine_.submit(copy, now);
    return true;
  }

  // TmaNeighbours.
  bool send(const memsys::MemRequest& r, Picos now) override {
    sent.emplace_back(now / clock_.period_ps, r);
    if (r.kind == memsys::ReqKind::kRead || r.acknowledge) {
      responses_.emplace(now + clock_.edge(r.acknowledge ? ack_cycles_ : l2_cycles_),
                         memsys::MemResponse{r.line, r.sector_mask, r.tag, r.sm, r.kind});
    }
    return true;
  }
  std::uint64_t write_shared(std::uint32_t /*bytes*/, Picos /*now*/) override { return 0; }
  std::uint64_t read_shared(std::uint32_t /*bytes*/, Picos /*now*/) override { return 0; }
  void complete(std::uint32_t token, Picos done_ps) override {
    completions_.emplace(done_ps, token);
  }

  // ClockedUnit.
  bool tick(std::uint64_t /*cycle*/, Picos now) override {
    bool progress = false;
    while (!responses_.empty() && responses_.begin()->first <= now) {
      engine_.take_response(responses_.begin()->second, now);
      responses_.erase(responses_.begin());
      progress = true;
    }
    return engine_.tick(now) || progress;
  }
  Picos next_event_ps() const override {
    const Picos r = responses_.empty() ? kNever : responses_.begin()->first;
    return std::min(r, engine_.next_event_ps());
  }
  bool busy() const override { return engine_.busy() || !responses_.empty(); }
  const std::string& name() const override { return name_; }
  std::string describe_state() const override { return "mock TMA port"; }
  void report(StatSink& /*sink*/) const override {}

  std::vector<std::uint64_t> submitted_at;                         // cycle of each submit_tma
  std::vector<std::pair<std::uint64_t, memsys::MemRequest>> sent;  // cycle, request

 private:
  Clock clock_;
  std::uint64_t l2_cycles_;
  std::uint64_t ack_cycles_;
  memsys::TmaEngine engine_;
  ByteCredit data_path_;
  bool limited_ = false;
  std::multimap<Picos, memsys::MemResponse> responses_;
  std::multimap<Picos, std::uint32_t> completions_;
  std::string name_ = "mock";
};

class TmaRig : public ::testing::Test {
 protected:
  static constexpr Picos kCycle = 1000;
  static constexpr std::uint64_t kShmemBase = 0x7f0000000000;

  void SetUp() override {
    config_ = small_config();
    config_.set_arch("sm_90");
    config_.mutable_sm()->mutable_units()->mutable_memory()->set_latency_cycles(4);
    config_.mutable_tma()->set_setup_latency_cycles(66);
    config_.mutable_tma()->set_bytes_per_cycle(128);
  }

  // Runs one CTA of `warps` (warp_text() parts) until it retires and the port is idle;
  // write acknowledgements take ack_cycles_ (0: l2_cycles).
  void run(const std::vector<std::string>& warps, std::uint64_t l2_cycles = 200) {
    const auto threads = static_cast<std::uint32_t>(32 * warps.size());
    std::string text = traces::trace_text::header({.name = "k",
                                                   .tracer = "5",
                                                   .binary_version = "90",
                                                   .grid = "(1,1,1)",
                                                   .block = fmt::format("({},1,1)", threads),
                                                   .nregs = "16",
                                                   .shmem = "1024",
                                                   .shmem_base = fmt::format("{:#x}", kShmemBase),
                                                   .local_base = "0x00007e0000000000"}) +
                       "#BEGIN_TB\n\nthread block = 0,0,0\n\n";
    for (const std::string& w : warps) text += w + "\n";
    text += "#END_TB\n";
    use_kernel(text, "tma.traceg", threads, static_cast<std::uint32_t>(warps.size()));
    std::optional<traces::CtaTrace> cta = kernel_->next_cta();
    ASSERT_TRUE(cta.has_value());
    if (!listings_.empty()) {  // control-bit mode: the listing's function "k"
      control_ = make_control_bits(listings_, kernel_->info());
      ASSERT_NE(control_, nullptr);
      control_->extend(*kernel_);
      context_.control = control_.get();
    }
    port_ = std::make_unique<TmaMockPort>(
        config_.tma(), l2_cycles, ack_cycles_ != 0 ? ack_cycles_ : l2_cycles, Clock{kCycle});
    sm_ = std::make_unique<Sm>(0, config_, *port_, Clock{kCycle});
    sm_->set_issue_observer(&recorder_);
    sm_->set_warp_state_accounting(WarpStateAccounting::kChecked);  // throws on a stale state
    Engine engine(Clock{kCycle}, Clock{kCycle}, Clock{kCycle}, 100000);
    engine.add(ClockDomain::kCore, port_.get());
    engine.add(ClockDomain::kCore, sm_.get());
    sm_->accept(std::move(*cta), context_, 0);
    engine.run_until([&] { return !sm_->busy() && !port_->busy(); });
    end_cycle_ = engine.cycle(ClockDomain::kCore);
  }

  // The trace header of a kernel of `ctas` one-warp CTAs (1,024 bytes of shared memory
  // each) forming one cluster along x.
  static std::string cluster_header(std::uint32_t ctas) {
    const std::string dims = fmt::format("({},1,1)", ctas);
    return traces::trace_text::header({.name = "k",
                                       .tracer = "5",
                                       .binary_version = "90",
                                       .grid = dims,
                                       .block = "(32,1,1)",
                                       .nregs = "16",
                                       .shmem = "1024",
                                       .cluster = dims,
                                       .shmem_base = fmt::format("{:#x}", kShmemBase),
                                       .local_base = "0x00007e0000000000"});
  }

  // kernel_ from trace text, and the context of its CTAs (`threads` in `warps` warps,
  // 1024 bytes of shared memory each, 16 MiB shared windows).
  void use_kernel(const std::string& text, const char* file, std::uint32_t threads,
                  std::uint32_t warps) {
    kernel_ = traces::kernel_from_text(text, file);
    const traces::KernelInfo& info = kernel_->info();
    timing_ = std::make_unique<ExecTiming>(config_.sm(), info.arch, info.arch);
    context_.info = &info;
    context_.statics = &kernel_->statics();
    context_.timing = timing_.get();
    context_.cta = {threads, warps, 0, 1024};
    context_.shared_window_size = 1 << 24;
  }

  // Runs kernel_ on `sms` SMs of one GPC through the CTA scheduler, each SM with its own
  // mock port (reads answered after `l2_cycles`; a non-zero `remote_bytes_per_cycle`
  // limits the shared data path for other SMs' data), until the kernel is done.
  void run_on_sms(std::uint32_t sms, std::uint64_t l2_cycles,
                  std::uint32_t remote_bytes_per_cycle) {
    Engine engine(Clock{kCycle}, Clock{kCycle}, Clock{kCycle}, 100000);
    std::vector<Sm*> raw;
    recorders_.resize(sms);
    for (std::uint32_t i = 0; i < sms; ++i) {
      ports_.push_back(
          std::make_unique<TmaMockPort>(config_.tma(), l2_cycles, l2_cycles, Clock{kCycle}));
      if (remote_bytes_per_cycle != 0) ports_.back()->limit_remote_shared(remote_bytes_per_cycle);
      sms_.push_back(std::make_unique<Sm>(i, config_, *ports_.back(), Clock{kCycle}));
      sms_.back()->set_issue_observer(&recorders_[i]);
      sms_.back()->set_warp_state_accounting(WarpStateAccounting::kChecked);
      engine.add(ClockDomain::kCore, ports_.back().get());
      raw.push_back(sms_.back().get());
    }
    SmNetwork network(sms, config_.cluster().dsmem_latency_cycles());
    for (Sm* sm : raw) {
      engine.add(ClockDomain::kCore, sm);
      sm->set_network(&network.outbox(sm->id()));
    }
    engine.add(ClockDomain::kCore, &network);
    CtaScheduler scheduler(raw, Clock{kCycle});
    scheduler.set_clusters(GpcLayout(std::vector<std::uint32_t>{sms}), 1);
    engine.add(ClockDomain::kCore, &scheduler);
    scheduler.start_kernel(*kernel_, context_);
    engine.run_until([&] { return scheduler.kernel_done(context_); });
  }

  std::uint64_t cycles_in(WarpCycleState state) const {
    return sm_->counters().warp_cycles[static_cast<std::size_t>(state)];
  }

  config::GpuConfig config_;
  std::unique_ptr<traces::KernelTrace> kernel_;
  std::unique_ptr<ExecTiming> timing_;
  std::vector<traces::sass::Listing> listings_;  // non-empty: control-bit mode
  std::unique_ptr<ControlBitsTable> control_;
  KernelContext context_;
  std::unique_ptr<TmaMockPort> port_;
  // run_on_sms(): one port, SM and issue record per SM.
  std::vector<std::unique_ptr<TmaMockPort>> ports_;
  std::vector<std::unique_ptr<Sm>> sms_;
  std::vector<IssueRecorder> recorders_;
  std::unique_ptr<Sm> sm_;
  IssueRecorder recorder_;
  std::uint64_t ack_cycles_ = 0;
  std::uint64_t end_cycle_ = 0;
};

}  // namespace sassim::sim::testing
