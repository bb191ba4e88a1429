// Local memory laid out per thread (sim/local_memory.h): a warp at one offset touches
// adjacent words, each thread place has its own, and a replayed STL/LDL pair coalesces
// (4 sectors a warp for 4 bytes a thread, 8 for 8) instead of all lanes naming one word.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include <fmt/format.h>

#include "configs/config_loader.h"
#include "sim/gpu.h"
#include "sim/local_memory.h"
#include "traces/text_trace.h"

namespace sassim::sim {
namespace {

TEST(LocalMemory, WordsOfOneOffsetSitSideBySide) {
  EXPECT_EQ(local_address(0, 0, 4), kLocalMemoryBase);
  EXPECT_EQ(local_address(0, 1, 4), kLocalMemoryBase + 4);
  EXPECT_EQ(local_address(4, 0, 4), kLocalMemoryBase + 4 * kLocalThreadSlots);
  EXPECT_EQ(local_address(0xfe9, 3, 4),
            kLocalMemoryBase + 0x3fa * 4 * kLocalThreadSlots + 3 * 4 + 1);
  EXPECT_EQ(local_address(8, 2, 8), kLocalMemoryBase + 8 * kLocalThreadSlots + 16);
  std::set<std::uint64_t> seen;
  for (std::uint64_t slot = 0; slot < 64; ++slot) {
    for (std::uint64_t offset = 0; offset < 64; offset += 4)
      EXPECT_TRUE(seen.insert(local_address(offset, slot, 4)).second) << slot << " " << offset;
  }
}

// Two CTAs of one warp on two SMs, each storing and loading at offsets 0xfe8 (4 bytes) and
// 0xff0 (8 bytes), the same offsets in every lane as the trace records them.
std::unique_ptr<traces::KernelTrace> spill_kernel() {
  std::string t =
      "-kernel name = spill\n-kernel id = 1\n-grid dim = (2,1,1)\n-block dim = (32,1,1)\n"
      "-shmem = 0\n-nregs = 16\n-binary version = 80\n-cuda stream id = 0\n"
      "-shmem base_addr = 0x00007f0000000000\n-local mem base_addr = 0x00007e0000000000\n"
      "-nvbit version = 1.5.5\n-accelsim tracer version = 4\n-enable lineinfo = 0\n";
  for (int cta = 0; cta < 2; ++cta) {
    t += fmt::format("\n#BEGIN_TB\n\nthread block = {},0,0\n\nwarp = 0\ninsts = 4\n", cta);
    t += "0000 ffffffff 0 STL 2 R1 R2 4 1 0xfe8 0\n";
    t += "0010 ffffffff 0 STL.64 2 R1 R2 8 1 0xff0 0\n";
    t += "0020 ffffffff 1 R3 LDL 1 R1 4 1 0xfe8 0\n";
    t += "0030 ffffffff 1 R4 LDL.64 1 R1 8 1 0xff0 0\n";
    t += "#END_TB\n";
  }
  return traces::kernel_from_text(t, "spill");
}

TEST(LocalMemory, ASpilledWordCoalescesPerWarp) {
  Gpu gpu(config::load_config("a100"));
  std::vector<std::unique_ptr<traces::KernelTrace>> kernels;
  kernels.push_back(spill_kernel());
  const auto workload = traces::workload_from_kernels(std::move(kernels));
  const auto results = gpu.run(*workload);
  ASSERT_EQ(results.size(), 1U);
  const StatsSnapshot s = gpu.snapshot();
  // Per warp: 4 + 8 sectors loaded, 4 + 8 stored; 2 warps. (One word for every lane
  // would be 1 + 1 sectors each.)
  EXPECT_EQ(s.sum(s.schema->matching("gpu.sm[", ".l1.sector_accesses")), 2 * 12);
  EXPECT_EQ(s.sum(s.schema->matching("gpu.sm[", ".l1.store_sectors")), 2 * 12);
}

}  // namespace
}  // namespace sassim::sim
