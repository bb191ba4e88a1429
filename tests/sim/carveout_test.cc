// The shared-memory carve-out a kernel runs with (sim::cta_resources): the smallest
// option holding the CTAs an SM can keep resident by its other limits and by the grid.
#include <gtest/gtest.h>

#include "configs/config_loader.h"
#include "sim/kernel_context.h"

namespace sassim::sim {
namespace {

constexpr std::uint32_t kKB = 1024;

traces::KernelInfo kernel(std::uint32_t grid_x, std::uint32_t threads, std::uint32_t shared) {
  traces::KernelInfo info;
  info.grid = {grid_x, 1, 1};
  info.block = {threads, 1, 1};
  info.nregs = 32;
  info.shmem_bytes = shared;
  return info;
}

TEST(Carveout, AGridOfOneCtaGetsTheSmallestCarveOutHoldingIt) {
  const config::GpuConfig qv100 = config::load_config("qv100");
  // 48 KB and 1024 threads: two such CTAs fit an SM by threads (96 KB), but a grid of
  // one CTA never has two on an SM, so 64 KB is enough and 64 KB stay L1 data cache.
  EXPECT_EQ(cta_resources(kernel(1, 1024, 48 * kKB), qv100).shared_carveout_bytes, 64 * kKB);
  EXPECT_EQ(cta_resources(kernel(80, 1024, 48 * kKB), qv100).shared_carveout_bytes, 64 * kKB);
  // 81 CTAs on 80 SMs: one SM gets two.
  EXPECT_EQ(cta_resources(kernel(81, 1024, 48 * kKB), qv100).shared_carveout_bytes, 96 * kKB);
  EXPECT_EQ(cta_resources(kernel(1000, 1024, 48 * kKB), qv100).shared_carveout_bytes, 96 * kKB);
}

TEST(Carveout, OtherLimitsStillCapTheResidentCtas) {
  const config::GpuConfig a100 = config::load_config("a100");
  // 16 KB, 256 threads: 8 CTAs by threads -> 128 KB -> the 132 KB option; a grid of 216
  // CTAs on 108 SMs gives only two per SM -> 32 KB.
  EXPECT_EQ(cta_resources(kernel(100000, 256, 16 * kKB), a100).shared_carveout_bytes, 132 * kKB);
  EXPECT_EQ(cta_resources(kernel(216, 256, 16 * kKB), a100).shared_carveout_bytes, 32 * kKB);
  EXPECT_EQ(cta_resources(kernel(1, 256, 0), a100).shared_carveout_bytes, 0u);
}

}  // namespace
}  // namespace sassim::sim
