#pragma once
// Shared pieces of the timing-model tests: a small GPU config, hand-built static
// instructions and CTAs, a memory port with a fixed latency, and an issue recorder.
#include <algorithm>
#include <cstdint>
#include <deque>
#include <optional>
#include <utility>
#include <vector>

#include "configs/sassim_config.pb.h"
#include "isa/instruction.h"
#include "memsys/sm_memory_port.h"
#include "sim/sm.h"
#include "traces/decoded_cta.h"
#include "traces/kernel_trace.h"

namespace sassim::sim::testing {

// One SM with one sub-core unless told otherwise; FP32 latency 4 / interval 2,
// INT latency 6 / interval 1, memory interval 1, others latency 1.
inline config::GpuConfig small_config(std::uint32_t sub_cores = 1, const char* policy = "gto") {
  config::GpuConfig c;
  c.set_name("test GPU");
  c.set_arch("sm_70");
  c.set_num_sms(1);
  c.mutable_clocks()->set_core_mhz(1000);
  c.mutable_clocks()->set_l2_mhz(1000);
  auto* sm = c.mutable_sm();
  sm->set_sub_cores(sub_cores);
  sm->set_max_warps(64);
  sm->set_max_threads(2048);
  sm->set_max_ctas(32);
  sm->set_registers(65536);
  sm->mutable_scheduler()->set_policy(policy);
  auto* u = sm->mutable_units();
  for (auto* e : {u->mutable_int_mad(), u->mutable_fp64(), u->mutable_fp16(), u->mutable_sfu(),
                  u->mutable_conversion(), u->mutable_tensor(), u->mutable_branch(),
                  u->mutable_uniform(), u->mutable_misc(), u->mutable_memory()}) {
    e->set_latency_cycles(1);
    e->set_initiation_interval_cycles(1);
  }
  u->mutable_fp32()->set_latency_cycles(4);
  u->mutable_fp32()->set_initiation_interval_cycles(2);
  u->mutable_int_alu()->set_latency_cycles(6);
  u->mutable_int_alu()->set_initiation_interval_cycles(1);
  c.mutable_l1()->set_shared_memory_bytes(98304);
  return c;
}

// small_config(4) as an sm_90 part whose HGMMA...F32.BF16 of every N takes latency
// max(20, N/2) and interval max(4, N/4) (N = 64: 32 and 16).
inline config::GpuConfig hopper_config() {
  config::GpuConfig c = small_config(4);
  c.set_arch("sm_90");
  auto* e = c.mutable_sm()->add_tensor_ops();
  e->set_opcode("HGMMA.64x256x16.F32.BF16");
  e->set_latency_cycles(20);
  e->set_latency_cycles_per_n(0.5);
  e->set_initiation_interval_cycles(4);
  e->set_initiation_interval_cycles_per_n(0.25);
  return c;
}

inline isa::StaticInst make_inst(std::uint64_t pc, isa::UnitClass unit,
                                 std::vector<std::uint16_t> src,
                                 std::optional<isa::RegRange> dst = std::nullopt) {
  isa::StaticInst s;
  s.pc = pc;
  s.op.unit = unit;
  s.op.id = 0;
  for (std::uint16_t r : src) s.src[s.num_src++] = r;
  if (dst) s.dst[s.num_dst++] = *dst;
  return s;
}

inline isa::StaticInst make_load(std::uint64_t pc, isa::RegRange dst, std::uint16_t addr_reg) {
  isa::StaticInst s = make_inst(pc, isa::UnitClass::kMemory, {addr_reg}, dst);
  s.op.space = isa::MemSpace::kGlobal;
  s.op.mem = isa::MemKind::kLoad;
  s.mem_width_bytes = 4;
  return s;
}

inline isa::StaticInst make_barrier(std::uint64_t pc) {
  isa::StaticInst s = make_inst(pc, isa::UnitClass::kBranch, {});
  s.op.control = isa::ControlKind::kBarrierSync;
  return s;
}

// Builds a CTA whose warps run the given static-instruction indices; memory
// instructions get one address per active lane (0x1000 + 4 x lane).
inline traces::DecodedCta make_decoded_cta(const traces::StaticInstTable& statics,
                                           const std::vector<std::vector<std::uint32_t>>& warps) {
  traces::DecodedCta cta;
  for (std::size_t w = 0; w < warps.size(); ++w) {
    traces::WarpTrace wt;
    wt.warp_in_cta = static_cast<std::uint32_t>(w);
    for (std::uint32_t index : warps[w]) {
      isa::WarpInst wi;
      wi.static_index = index;
      wi.active_mask = 0xffffffffU;
      if (statics[index].op.mem != isa::MemKind::kNone) {
        wi.addr_begin = static_cast<std::uint32_t>(cta.addresses.size());
        wi.addr_count = 32;
        for (std::uint64_t lane = 0; lane < 32; ++lane) cta.addresses.push_back(0x1000 + 4 * lane);
      }
      wt.insts.push_back(wi);
    }
    cta.warps.push_back(std::move(wt));
  }
  return cta;
}

inline traces::CtaTrace make_cta(const traces::StaticInstTable& statics,
                                 const std::vector<std::vector<std::uint32_t>>& warps) {
  return traces::encode(make_decoded_cta(statics, warps));
}

// Completes every access a fixed number of core cycles after it was submitted.
// With ack_latency_ps > 0 it acknowledges writes: a store's ack token comes back that
// long after its submission.
class FixedLatencyPort final : public memsys::SmMemoryPort {
 public:
  FixedLatencyPort(Picos latency_ps, std::size_t capacity = 64, Picos ack_latency_ps = 0)
      : latency_ps_(latency_ps), ack_latency_ps_(ack_latency_ps), capacity_(capacity) {}
  bool acknowledges_writes() const override { return ack_latency_ps_ > 0; }
  bool can_accept(Picos /*now*/) const override { return in_flight_.size() < capacity_; }
  void submit(const memsys::WarpMemAccess& access, Picos now) override {
    add(now + latency_ps_, access.token);
    if (access.ack_token != memsys::kNoAckToken) add(now + ack_latency_ps_, access.ack_token);
    ++submitted;
    submit_times.push_back(now);
    last_bytes_per_thread = access.bytes_per_thread;
  }
  std::optional<std::uint32_t> pop_completed(Picos now) override {
    if (in_flight_.empty() || in_flight_.front().first > now) return std::nullopt;
    auto token = in_flight_.front().second;
    in_flight_.pop_front();
    return token;
  }
  Picos next_completion_ps() const override {
    return in_flight_.empty() ? kNever : in_flight_.front().first;
  }
  std::uint32_t outstanding() const override {
    return static_cast<std::uint32_t>(in_flight_.size());
  }
  std::uint64_t submitted = 0;
  std::vector<Picos> submit_times;  // of every access, in submission order
  unsigned last_bytes_per_thread = 0;

 private:
  void add(Picos at, std::uint32_t token) {  // in time order, ties in submission order
    const auto after = std::find_if(in_flight_.begin(), in_flight_.end(),
                                    [&](const auto& e) { return e.first > at; });
    in_flight_.emplace(after, at, token);
  }

  Picos latency_ps_;
  Picos ack_latency_ps_;
  std::size_t capacity_;
  std::deque<std::pair<Picos, std::uint32_t>> in_flight_;
};

struct IssueRecord {
  unsigned warp;
  std::uint64_t cycle;
  std::uint64_t pc;
  friend bool operator==(const IssueRecord&, const IssueRecord&) = default;
};

class IssueRecorder final : public IssueObserver {
 public:
  void issued(std::uint32_t /*sm*/, unsigned warp, std::uint64_t cycle,
              const isa::StaticInst& inst) override {
    records.push_back({warp, cycle, inst.pc});
  }
  std::uint64_t cycle_of(std::uint64_t pc, unsigned warp = 0) const {
    for (const IssueRecord& r : records) {
      if (r.pc == pc && r.warp == warp) return r.cycle;
    }
    return ~std::uint64_t{0};
  }
  std::vector<IssueRecord> records;
};

}  // namespace sassim::sim::testing
