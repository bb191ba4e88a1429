#pragma once
// Shared scaffolding of the memory-system tests: a small config built in code, a
// mock SM that submits scripted accesses and records when each completes, and a rig
// that wires a memory system, the mock SMs and the real Engine together.
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "configs/sassim_config.pb.h"
#include "ground/engine.h"
#include "ground/error.h"
#include "memsys/memory_system.h"
#include "memsys/memsys_config.h"

namespace sassim::memsys::testing {

// 2 SMs; core, L2/NoC and DRAM clocks all 1 GHz (1000 ps) unless a test changes them.
inline config::GpuConfig small_config() {
  config::GpuConfig c;
  c.set_num_sms(2);
  c.mutable_clocks()->set_core_mhz(1000);
  c.mutable_clocks()->set_l2_mhz(1000);
  config::L1Config& l1 = *c.mutable_l1();
  l1.set_unified_size_bytes(64 * 1024);
  l1.set_shared_memory_bytes(32 * 1024);  // 32 KiB of L1 data: 64 sets x 4 ways x 128 B
  l1.set_associativity(4);
  l1.set_hit_latency_cycles(20);
  l1.set_shared_latency_cycles(10);
  l1.set_mshr_entries(8);
  l1.set_data_bytes_per_cycle(128);
  config::InterconnectConfig& noc = *c.mutable_interconnect();
  noc.set_latency_cycles(10);
  noc.set_port_bytes_per_cycle(64);
  config::L2Config& l2 = *c.mutable_l2();
  l2.set_size_bytes(256 * 1024);  // 4 slices x 64 KiB: 64 sets x 8 ways x 128 B
  l2.set_slices(4);
  l2.set_associativity(8);
  l2.set_hit_latency_cycles(30);
  l2.set_slice_bytes_per_cycle(64);
  l2.set_mshr_entries(16);
  l2.set_address_hash("linear");
  config::DramConfig& dram = *c.mutable_dram();
  dram.set_type("HBM2");
  dram.set_channels(2);
  dram.set_bus_width_bits(64);    // 16 bytes per DRAM clock
  dram.set_data_rate_mtps(2000);  // 1 GHz command clock
  dram.set_latency_ns(100);
  return c;
}

// small_config()'s figures: its clock period; the zero-load round trip of a load that
// hits in the L2 (L1 hit 20 + interconnect 10 each way + L2 hit 30 cycles); DRAM latency.
inline constexpr Picos kCycle = 1000;
inline constexpr Picos kL2HitRoundTrip = (20 + 2 * 10 + 30) * kCycle;
inline constexpr Picos kDramLatency = 100'000;

struct ScriptedAccess {
  Picos at_ps = 0;
  WarpMemAccess access;
  std::vector<std::uint64_t> addresses;
  std::optional<TmaCopy> tma;  // a TMA / bulk copy instead of a warp access
};

// A core-clock unit standing in for an SM: submits its script in order (each at the
// first edge at or after its time, when the port accepts) and pops completions.
class MockSm final : public ClockedUnit {
 public:
  MockSm(SmMemoryPort& port, Clock clock, std::uint32_t id)
      : port_(port), clock_(clock), name_("test.sm[" + std::to_string(id) + "]") {}

  void schedule(Picos at_ps, std::uint32_t token, isa::MemSpace space, isa::MemKind kind,
                std::vector<std::uint64_t> addresses, std::uint8_t bytes_per_thread = 4) {
    ScriptedAccess& s = script_.emplace_back();
    s.at_ps = at_ps;
    s.addresses = std::move(addresses);
    s.access.token = token;
    s.access.space = space;
    s.access.kind = kind;
    s.access.bytes_per_thread = bytes_per_thread;
    const std::size_t n = s.addresses.size();
    s.access.active_mask = n >= 32 ? 0xffffffffu : (1u << n) - 1;
    ++expected_;
  }
  void tma(Picos at_ps, TmaCopy copy) {
    ScriptedAccess& s = script_.emplace_back();
    s.at_ps = at_ps;
    s.access.token = copy.token;
    expected_ += copy.ack_token == kNoAckToken ? 1 : 2;  // the source read, the acks
    s.tma = std::move(copy);
  }
  void load(Picos at_ps, std::uint32_t token, std::vector<std::uint64_t> addresses,
            std::uint8_t bytes = 4) {
    schedule(at_ps, token, isa::MemSpace::kGlobal, isa::MemKind::kLoad, std::move(addresses),
             bytes);
  }
  void store(Picos at_ps, std::uint32_t token, std::vector<std::uint64_t> addresses) {
    schedule(at_ps, token, isa::MemSpace::kGlobal, isa::MemKind::kStore, std::move(addresses));
  }
  // A global store whose writes the L2 acknowledges: ack_token completes with the last.
  void store_acknowledged(Picos at_ps, std::uint32_t token, std::uint32_t ack_token,
                          std::vector<std::uint64_t> addresses) {
    store(at_ps, token, std::move(addresses));
    script_.back().access.ack_token = ack_token;
    ++expected_;
  }
  // A global load whose cache operator keeps it out of the L1 (LDG.E.STRONG.GPU).
  void load_l1_bypass(Picos at_ps, std::uint32_t token, std::vector<std::uint64_t> addresses) {
    load(at_ps, token, std::move(addresses));
    script_.back().access.l1_bypass = true;
  }
  // An async copy (LDGSTS) of 16 bytes per thread; bypass: LDGSTS.BYPASS (cp.async.cg).
  void async_copy(Picos at_ps, std::uint32_t token, std::vector<std::uint64_t> addresses,
                  bool bypass) {
    schedule(at_ps, token, isa::MemSpace::kGlobal, isa::MemKind::kAsyncCopy, std::move(addresses),
             16);
    script_.back().access.l1_bypass = bypass;
  }
  void load_with_policy(Picos at_ps, std::uint32_t token, std::vector<std::uint64_t> addresses,
                        isa::L1Policy policy) {
    load(at_ps, token, std::move(addresses));
    script_.back().access.l1_policy = policy;
  }

  bool done() const { return next_ == script_.size() && completed_.size() == expected_; }
  Picos submitted_at(std::uint32_t token) const { return submitted_.at(token); }
  Picos completed_at(std::uint32_t token) const { return completed_.at(token); }
  Picos latency(std::uint32_t token) const { return completed_at(token) - submitted_at(token); }
  const std::vector<std::uint32_t>& completion_order() const { return order_; }
  std::size_t completed_count() const { return completed_.size(); }

  bool tick(std::uint64_t /*cycle*/, Picos now) override {
    bool progress = false;
    while (auto token = port_.pop_completed(now)) {
      completed_[*token] = now;
      order_.push_back(*token);
      progress = true;
    }
    while (next_ < script_.size() && script_[next_].at_ps <= now && port_.can_accept(now)) {
      ScriptedAccess& s = script_[next_++];
      s.access.addresses = s.addresses;
      if (s.tma) {
        if (!port_.submit_tma(*s.tma, now)) throw std::logic_error("the port has no TMA engine");
      } else {
        port_.submit(s.access, now);
      }
      submitted_[s.access.token] = now;
      progress = true;
    }
    blocked_ = next_ < script_.size() && script_[next_].at_ps <= now;
    last_tick_ = now;
    return progress;
  }
  Picos next_event_ps() const override {
    Picos next = port_.next_completion_ps();
    if (next_ < script_.size()) {
      next = std::min(next, blocked_ ? last_tick_ + clock_.period_ps : script_[next_].at_ps);
    }
    return next;
  }
  bool busy() const override { return !done(); }
  const std::string& name() const override { return name_; }
  std::string describe_state() const override {
    return std::to_string(next_) + "/" + std::to_string(script_.size()) + " submitted";
  }
  void report(StatSink& /*sink*/) const override {}

 private:
  SmMemoryPort& port_;
  Clock clock_;
  std::string name_;
  std::deque<ScriptedAccess> script_;
  std::size_t next_ = 0;
  std::size_t expected_ = 0;
  bool blocked_ = false;
  Picos last_tick_ = 0;
  std::map<std::uint32_t, Picos> submitted_;
  std::map<std::uint32_t, Picos> completed_;
  std::vector<std::uint32_t> order_;
};

class MapSink final : public StatSink {
 public:
  void add(std::string_view name, double value) override { values[std::string(name)] += value; }
  double get(const std::string& name) const {
    auto it = values.find(name);
    return it == values.end() ? -1.0 : it->second;
  }
  // Sum of a counter over every unit whose name starts with prefix ("gpu.l2.slice[").
  double sum(const std::string& prefix, const std::string& counter) const {
    double total = 0;
    for (const auto& [name, value] : values) {
      if (name.rfind(prefix, 0) == 0 && name.size() > counter.size() &&
          name.compare(name.size() - counter.size() - 1, std::string::npos, "." + counter) == 0) {
        total += value;
      }
    }
    return total;
  }
  std::map<std::string, double> values;
};

// A memory system, one mock SM per SM, and the engine ticking them.
struct Rig {
  explicit Rig(const config::GpuConfig& c)
      : config(c),
        memory(make_memory_system(c)),
        clocks(domain_clocks(c)),
        engine(clocks.core, clocks.l2, clocks.dram, 100000) {
    for (auto [domain, unit] : memory->units()) engine.add(domain, unit);
    for (std::uint32_t i = 0; i < c.num_sms(); ++i) {
      sms.push_back(std::make_unique<MockSm>(memory->port(i), clocks.core, i));
      engine.add(ClockDomain::kCore, sms.back().get());
    }
  }
  MockSm& sm(std::uint32_t i) { return *sms.at(i); }
  // Runs until every scripted access completed.
  void run() {
    engine.run_until([this] {
      for (const auto& s : sms) {
        if (!s->done()) return false;
      }
      return true;
    });
  }
  // Runs until no unit holds work (stores and writebacks drained).
  void drain() {
    engine.run_until([this] {
      for (auto [domain, unit] : memory->units()) {
        if (unit->busy()) return false;
      }
      return true;
    });
  }
  MapSink stats() {
    MapSink sink;
    for (auto [domain, unit] : memory->units()) unit->report(sink);
    return sink;
  }
  Picos now() const { return engine.now(); }

  config::GpuConfig config;
  std::unique_ptr<MemorySystem> memory;
  DomainClocks clocks;
  Engine engine;
  std::vector<std::unique_ptr<MockSm>> sms;
};

// The message make_memory_system refuses config c with; empty when it builds.
inline std::string build_error(const config::GpuConfig& c) {
  try {
    make_memory_system(c);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// Addresses of 32 threads: base + lane * stride.
inline std::vector<std::uint64_t> strided(std::uint64_t base, std::uint64_t stride,
                                          std::uint32_t threads = 32) {
  std::vector<std::uint64_t> out;
  for (std::uint32_t t = 0; t < threads; ++t) out.push_back(base + t * stride);
  return out;
}

}  // namespace sassim::memsys::testing
