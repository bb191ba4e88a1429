// Every bundled preset builds a memory system, and its DRAM moves its configured peak.
#include <gtest/gtest.h>

#include "configs/config_loader.h"
#include "memsys/memory_system.h"

namespace sassim::memsys {
namespace {

TEST(Presets, EveryPresetBuildsAMemorySystem) {
  const std::vector<std::string> names = config::preset_names();
  ASSERT_FALSE(names.empty());
  for (const std::string& name : names) {
    SCOPED_TRACE(name);
    const config::GpuConfig c = config::load_config(name);
    auto memory = make_memory_system(c);
    const auto units = memory->units();
    // DRAM channels, L2 slices, the crossbar, the hub (the collectives' traffic,
    // memsys/hub_traffic.h), then an L1 per SM.
    ASSERT_EQ(units.size(), c.dram().channels() + c.l2().slices() + 1 + 1 + c.num_sms());
    EXPECT_EQ(units[c.dram().channels() + c.l2().slices() + 1].second->name(), "gpu.hub");
    EXPECT_EQ(units.back().second->name(), "gpu.sm[" + std::to_string(c.num_sms() - 1) + "].l1");
  }
}

}  // namespace
}  // namespace sassim::memsys
