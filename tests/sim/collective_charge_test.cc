// A collective's GPU side charged to the GPU (sim/gpu_collectives.h), with a scripted
// port: its SMs take no CTA of a kernel of another stream from the collective's arrival
// to its end and take them after; its memory traffic goes through the hub into the L2
// and DRAM, exactly its bytes; a charge of nothing leaves the kernel alone.
#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include <fmt/format.h>

#include "configs/config_loader.h"
#include "sim/collective_port.h"
#include "sim/cta_scheduler.h"
#include "sim/gpu.h"
#include "traces/text_trace.h"

#include "command_list.h"

namespace sassim::sim {
namespace {

constexpr Picos kPeriod = 1000;         // a 1 GHz core clock
constexpr Picos kTime = 200 * kPeriod;  // the collective's time
constexpr std::uint32_t kSms = 8;

// One collective port for one GPU that is the whole communicator: every collective
// starts at its arrival and ends kTime later; syncs are kTime apart.
class ScriptedPort final : public CollectivePort {
 public:
  explicit ScriptedPort(Charge charge) : charge_(charge) { charge_.time_ps = kTime; }
  std::optional<Picos> arrive(std::size_t index, Picos now) override {
    arrivals_.emplace_back(index, now);
    return now;
  }
  Charge charge(std::size_t /*index*/) const override { return charge_; }
  Picos next_sync(Picos now) const override { return (now / kTime + 1) * kTime; }
  std::vector<Finished> sync(Picos /*now*/, bool /*idle*/) override {
    std::vector<Finished> out;
    for (const auto& [index, at] : arrivals_) out.push_back({index, at + kTime});
    arrivals_.clear();
    return out;
  }

 private:
  Charge charge_;
  std::vector<std::pair<std::size_t, Picos>> arrivals_;
};

using Commands = testing::CommandList;

// 24 CTAs on stream 1, one a SM at a time (their shared memory), each one warp running
// 100 dependent FFMAs.
std::unique_ptr<traces::KernelTrace> wide_kernel() {
  std::string t =
      "-kernel name = wide\n-kernel id = 1\n-grid dim = (24,1,1)\n-block dim = (32,1,1)\n"
      "-shmem = 60000\n-nregs = 16\n-binary version = 70\n-cuda stream id = 1\n"
      "-shmem base_addr = 0x00007f0000000000\n-local mem base_addr = 0x00007e0000000000\n"
      "-nvbit version = 1.5.5\n-accelsim tracer version = 4\n-enable lineinfo = 0\n";
  for (int cta = 0; cta < 24; ++cta) {
    t += fmt::format("\n#BEGIN_TB\n\nthread block = {},0,0\n\nwarp = 0\ninsts = 100\n", cta);
    for (int i = 0; i < 100; ++i) t += fmt::format("{:04x} ffffffff 1 R2 FFMA 1 R2 0\n", i * 16);
    t += "#END_TB\n";
  }
  return traces::kernel_from_text(t, "wide");
}

config::GpuConfig small_v100() {
  config::GpuConfig c = config::load_config("v100");
  c.set_num_sms(kSms);
  c.mutable_clocks()->set_core_mhz(1000);
  // No grid launch time: the first CTAs are placed within the collective's time.
  c.mutable_sm()->set_grid_launch_cycles(0);
  c.mutable_sm()->set_grid_launch_ns(0);
  return c;
}

struct Placements final : CtaPlacementObserver {
  void placed(std::uint32_t sm, const traces::Dim3&, const ClusterMembership&,
              std::uint64_t cycle) override {
    at.emplace_back(sm, cycle);
  }
  std::vector<std::pair<std::uint32_t, std::uint64_t>> at;  // (SM, cycle)
};

struct ChargedRun {
  std::vector<KernelResult> kernels;
  Placements placements;
  memsys::HubTraffic::Counters traffic_at_end;  // when run() returned
  memsys::HubTraffic::Counters traffic;         // once the memory drained
  StatsSnapshot stats;
};

enum class Launches { kBoth, kKernelAlone, kCollectiveAlone };

// A collective on stream 0 beside the wide kernel on stream 1, or either alone.
ChargedRun run(CollectivePort::Charge charge, Launches launches = Launches::kBoth) {
  Commands w;
  traces::CollectiveCommand all_reduce;
  all_reduce.op = "all_reduce";
  all_reduce.bytes = 1 << 20;
  all_reduce.type = "bf16";
  if (launches != Launches::kKernelAlone) w.add(all_reduce);
  if (launches != Launches::kCollectiveAlone) w.add(traces::KernelLaunch{wide_kernel()});
  ScriptedPort port(charge);
  Gpu gpu(small_v100());
  ChargedRun r;
  gpu.set_collective_port(&port);
  gpu.set_placement_observer(&r.placements);
  r.kernels = gpu.run(w);
  r.traffic_at_end = gpu.collective_traffic();
  gpu.drain_memory();  // as a multi-GPU run does after a rank's end
  r.traffic = gpu.collective_traffic();
  r.stats = gpu.snapshot();
  return r;
}

double sum(const StatsSnapshot& s, std::string_view prefix, std::string_view suffix) {
  return s.sum(s.schema->matching(prefix, suffix));
}

TEST(CollectiveCharge, ItsSmsTakeNoCtaUntilItEnds) {
  const ChargedRun r = run({.sms = 3});
  ASSERT_EQ(r.kernels.size(), 1u);
  ASSERT_EQ(r.placements.at.size(), 24u);
  const std::uint64_t end_cycle = kTime / kPeriod;
  std::uint64_t first_on_taken = ~std::uint64_t{0};
  std::uint32_t before_end = 0;
  for (const auto& [sm, cycle] : r.placements.at) {
    if (sm >= kSms - 3) first_on_taken = std::min(first_on_taken, cycle);
    if (cycle < end_cycle) {
      ++before_end;
      EXPECT_LT(sm, kSms - 3) << "a CTA on taken SM " << sm << " at cycle " << cycle;
    }
  }
  EXPECT_EQ(before_end, kSms - 3);  // the first wave fills the free SMs
  // The SMs are given back at the collective's end; the scheduler fills them next cycle.
  EXPECT_EQ(first_on_taken, end_cycle + 1);
}

TEST(CollectiveCharge, WithoutACharge_TheKernelHasEverySm) {
  const ChargedRun r = run({});
  ASSERT_EQ(r.placements.at.size(), 24u);
  std::uint32_t first_wave = 0;
  for (const auto& [sm, cycle] : r.placements.at) first_wave += cycle < kTime / kPeriod ? 1 : 0;
  EXPECT_EQ(first_wave, kSms);
  EXPECT_EQ(r.traffic.read_bytes + r.traffic.write_bytes, 0u);
  EXPECT_EQ(r.traffic.flows, 0u);
  // The kernel takes exactly as long as without the collective; with 3 SMs taken for
  // the collective's time, longer.
  const ChargedRun alone = run({}, Launches::kKernelAlone);
  ASSERT_EQ(alone.kernels.size(), 1u);
  EXPECT_EQ(r.kernels[0].cycles, alone.kernels[0].cycles);
  const ChargedRun charged = run({.sms = 3});
  EXPECT_GT(charged.kernels[0].cycles, r.kernels[0].cycles);
}

TEST(CollectiveCharge, ItsBytesGoThroughTheL2AndDram) {
  const ChargedRun none = run({});
  const ChargedRun r =
      run({.sms = 0, .memory_read_bytes = 64 << 10, .memory_write_bytes = 32 << 10});
  EXPECT_EQ(r.traffic.read_bytes, 64u << 10);
  EXPECT_EQ(r.traffic.write_bytes, 32u << 10);
  EXPECT_EQ(r.traffic.read_requests, 512u);
  EXPECT_EQ(r.traffic.write_requests, 256u);
  EXPECT_EQ(r.traffic.responses, 512u);
  EXPECT_EQ(r.stats.get("gpu.hub.read_bytes"), 64 << 10);
  EXPECT_EQ(r.stats.get("gpu.hub.write_bytes"), 32 << 10);
  // Every sector the hub sent is an L2 sector access; its reads of lines never touched
  // before miss to DRAM.
  const double sectors = sum(r.stats, "gpu.l2.slice[", ".sector_accesses") -
                         sum(none.stats, "gpu.l2.slice[", ".sector_accesses");
  EXPECT_EQ(sectors, (96 << 10) / 32);
  const double dram_read = sum(r.stats, "gpu.dram.channel[", ".read_bytes") -
                           sum(none.stats, "gpu.dram.channel[", ".read_bytes");
  EXPECT_EQ(sum(none.stats, "gpu.dram.channel[", ".read_bytes"), 0);
  EXPECT_EQ(dram_read, 64 << 10);
  // Its writes stay in the write-back L2: the run ends before anything evicts them.
  EXPECT_EQ(sum(r.stats, "gpu.dram.channel[", ".write_bytes"), 0);
}

// With no kernel running the memory system still runs while the hub has traffic: every
// request is sent within the collective's time (before run() returns), and every read
// is answered once the memory has drained.
TEST(CollectiveCharge, WithNoKernelRunning_ItsBytesStillGoThroughTheMemory) {
  const ChargedRun r =
      run({.sms = 2, .memory_read_bytes = 64 << 10, .memory_write_bytes = 32 << 10},
          Launches::kCollectiveAlone);
  EXPECT_TRUE(r.kernels.empty());
  EXPECT_EQ(r.traffic_at_end.read_requests, 512u);
  EXPECT_EQ(r.traffic_at_end.write_requests, 256u);
  EXPECT_EQ(r.traffic.read_bytes, 64u << 10);
  EXPECT_EQ(r.traffic.write_bytes, 32u << 10);
  EXPECT_EQ(r.traffic.responses, 512u);
  EXPECT_EQ(sum(r.stats, "gpu.l2.slice[", ".sector_accesses"), (96 << 10) / 32);
  EXPECT_EQ(sum(r.stats, "gpu.dram.channel[", ".read_bytes"), 64 << 10);
}

}  // namespace
}  // namespace sassim::sim
