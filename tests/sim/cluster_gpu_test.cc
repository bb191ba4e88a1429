// Thread block clusters through the whole GPU: a trace with -cluster dim on the h100
// preset (cut to 4 SMs in 2 GPCs) and the launch errors naming the trace line.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "configs/config_loader.h"
#include "ground/error.h"
#include "sim/gpu.h"
#include "traces/text_trace.h"

namespace sassim::sim {
namespace {

using ::testing::HasSubstr;

// `ctas` one-warp CTAs in clusters of `cluster`: each arrives at and waits for the
// cluster barrier, then exits. "-cluster dim" is line 14.
std::unique_ptr<traces::KernelTrace> cluster_kernel(int ctas, int cluster, int version = 90) {
  std::string t = fmt::format(
      "-kernel name = clustered\n-kernel id = 1\n-grid dim = ({},1,1)\n-block dim = (32,1,1)\n"
      "-shmem = 0\n-nregs = 16\n-binary version = {}\n-cuda stream id = 0\n"
      "-shmem base_addr = 0x00007f0000000000\n-local mem base_addr = 0x00007e0000000000\n"
      "-nvbit version = 1.5.5\n-accelsim tracer version = 4\n-enable lineinfo = 0\n"
      "-cluster dim = ({},1,1)\n\n",
      ctas, version, cluster);
  for (int c = 0; c < ctas; ++c) {
    t += fmt::format(
        "#BEGIN_TB\n\nthread block = {},0,0\n\nwarp = 0\ninsts = 3\n"
        "0000 ffffffff 0 UCGABAR_ARV 0 0\n0010 ffffffff 0 UCGABAR_WAIT 0 0\n"
        "0020 ffffffff 0 EXIT 0 0\n#END_TB\n",
        c);
  }
  return traces::kernel_from_text(t, "clustered.traceg");
}

KernelResult run_clusters(std::uint32_t barrier_latency) {
  const config::GpuConfig config = config::load_config(
      "h100", {"num_sms=4", "cluster.gpc_sms=2,2",
               fmt::format("cluster.barrier_latency_cycles={}", barrier_latency)});
  Gpu gpu(config);
  auto kernel = cluster_kernel(4, 2);
  return gpu.run_kernel(*kernel);
}

TEST(ClusterGpu, TheClusterBarrierLatencyIsOnTheCriticalPath) {
  const KernelResult fast = run_clusters(20), slow = run_clusters(120);
  for (int sm = 0; sm < 4; ++sm) {
    EXPECT_EQ(fast.stats.get(fmt::format("gpu.sm[{}].ctas", sm)), 1.0) << sm;
  }
  EXPECT_EQ(fast.warp_insts, 12U);
  // Every warp waits once for its cluster's barrier: 100 more cycles of latency make
  // the kernel exactly 100 cycles longer.
  EXPECT_EQ(slow.cycles - fast.cycles, 100U);
}

std::string error_running(const std::string& preset, int ctas, int cluster, int version = 90) {
  try {
    const config::GpuConfig config = config::load_config(preset);
    Gpu gpu(config);
    auto kernel = cluster_kernel(ctas, cluster, version);
    gpu.run_kernel(*kernel);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(ClusterGpu, LaunchErrorsNameTheTraceLine) {
  EXPECT_THAT(error_running("h100", 32, 32),
              HasSubstr("clustered.traceg:14: -cluster dim = (32,1,1) has 32 CTAs: expected at "
                        "most cluster.max_cluster_ctas = 16 of NVIDIA H100 SXM5 80GB"));
  EXPECT_THAT(error_running("a100", 4, 2),
              HasSubstr("clustered.traceg:14: -cluster dim = (2,1,1) on NVIDIA A100-SXM4-40GB "
                        "(sm_80): expected a GPU of sm_90 or later for clusters"));
  EXPECT_THAT(error_running("h100", 4, 2, 80),
              HasSubstr("clustered.traceg:14: -cluster dim = (2,1,1) in an sm_80 kernel"));
}

}  // namespace
}  // namespace sassim::sim
