// How SMs are grouped into tiles for host threads (sim/sm_tiles.h), and a kernel of
// thread block clusters (SMs of one GPC meeting at cluster barriers over the SM-to-SM
// network, each SM a tile of its own) giving the same result on any thread count.
#include <gtest/gtest.h>

#include <deque>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "configs/config_loader.h"
#include "sim/gpu.h"
#include "sim/sm_tiles.h"
#include "traces/text_trace.h"

namespace sassim::sim {
namespace {

class Named final : public ClockedUnit {
 public:
  explicit Named(std::string name) : name_(std::move(name)) {}
  bool tick(std::uint64_t, Picos) override { return false; }
  Picos next_event_ps() const override { return kNever; }
  bool busy() const override { return false; }
  const std::string& name() const override { return name_; }
  std::string describe_state() const override { return ""; }
  void report(StatSink&) const override {}

 private:
  std::string name_;
};

struct Units {
  explicit Units(int n) {
    for (int i = 0; i < n; ++i) {
      owned.emplace_back("sm" + std::to_string(i));
      owned.emplace_back("l1_" + std::to_string(i));
    }
    for (int i = 0; i < n; ++i) {
      sms.push_back(&owned[2 * static_cast<std::size_t>(i)]);
      ports.push_back(&owned[2 * static_cast<std::size_t>(i) + 1]);
    }
  }
  std::deque<Named> owned;
  std::vector<ClockedUnit*> sms, ports;
};

std::vector<std::vector<std::string>> names(const std::vector<std::vector<ClockedUnit*>>& tiles) {
  std::vector<std::vector<std::string>> out;
  for (const auto& tile : tiles) {
    auto& t = out.emplace_back();
    for (const ClockedUnit* u : tile) t.push_back(u->name());
  }
  return out;
}

using Tiles = std::vector<std::vector<std::string>>;

TEST(SmTiles, OnePerSmWithItsPortFirst) {
  Units u(3);
  EXPECT_EQ(names(sm_tiles(u.sms, u.ports)),
            (Tiles{{"l1_0", "sm0"}, {"l1_1", "sm1"}, {"l1_2", "sm2"}}));
}

TEST(SmTiles, NoneWhenSmsSharePort) {
  Units u(2);
  std::vector<ClockedUnit*> shared{u.ports[0], u.ports[0]};
  EXPECT_TRUE(sm_tiles(u.sms, shared).empty());
  std::vector<ClockedUnit*> none{nullptr, nullptr};
  EXPECT_EQ(names(sm_tiles(u.sms, none)), (Tiles{{"sm0"}, {"sm1"}}));
}

// `ctas` CTAs of four warps in clusters of `cluster`; each warp loads, arrives at and
// waits for the cluster barrier, then exits.
std::unique_ptr<traces::KernelTrace> cluster_kernel(int ctas, int cluster) {
  std::string t = fmt::format(
      "-kernel name = clustered\n-kernel id = 1\n-grid dim = ({},1,1)\n-block dim = (128,1,1)\n"
      "-shmem = 0\n-nregs = 16\n-binary version = 90\n-cuda stream id = 0\n"
      "-shmem base_addr = 0x00007f0000000000\n-local mem base_addr = 0x00007e0000000000\n"
      "-nvbit version = 1.5.5\n-accelsim tracer version = 4\n-enable lineinfo = 0\n"
      "-cluster dim = ({},1,1)\n\n",
      ctas, cluster);
  for (int c = 0; c < ctas; ++c) {
    t += fmt::format("#BEGIN_TB\n\nthread block = {},0,0\n\n", c);
    for (int w = 0; w < 4; ++w) {
      t += fmt::format(
          "warp = {}\ninsts = 4\n"
          "0000 ffffffff 1 R2 LDG.E.SYS 1 R4 4 1 0x{:x} 4\n"
          "0010 ffffffff 0 UCGABAR_ARV 0 0\n0020 ffffffff 0 UCGABAR_WAIT 0 0\n"
          "0030 ffffffff 0 EXIT 0 0\n",
          w, 0x7000'0000'0000 + (c * 4 + w) * 4096);
    }
    t += "#END_TB\n";
  }
  return traces::kernel_from_text(t, "clustered.traceg");
}

TEST(SmTiles, ClusterKernelIsTheSameOnAnyThreadCount) {
  const config::GpuConfig config = config::load_config("h100");
  auto run = [&](unsigned threads) {
    Gpu gpu(config);
    gpu.set_threads(threads);
    auto kernel = cluster_kernel(2 * static_cast<int>(config.num_sms()) + 8, 4);
    return gpu.run_kernel(*kernel);
  };
  const KernelResult one = run(1);
  EXPECT_EQ(one.warp_insts, 4u * 4u * (2u * config.num_sms() + 8u));
  for (unsigned threads : {2u, 3u, 8u}) {
    const KernelResult many = run(threads);
    EXPECT_EQ(many.cycles, one.cycles) << threads;
    EXPECT_TRUE(many.stats == one.stats) << threads;
  }
}

}  // namespace
}  // namespace sassim::sim
