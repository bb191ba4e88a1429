#pragma once
// The host memory the model of a config takes, estimated from the config before anything
// is built, and the limit a config is refused beyond. The parts that grow with the config:
// the tag arrays of the caches (L1 data, L0 and L1 instruction, L2), the MSHR tables and
// the SMs' warp slots. Per-item figures are upper bounds of the model's structures
// (tests/sim/memory_figures_test.cc holds them against sizeof of the real ones).
#include <cstdint>
#include <string>
#include <vector>

#include "configs/sassim_config.pb.h"

namespace sassim::config {

// A data cache line (memsys::SectorCache): its Line (32 bytes), tag and rank words (16)
// and its share of the line index of caches of more than 32 ways (up to four buckets of
// 12 bytes).
inline constexpr std::uint64_t kCacheLineStateBytes = 96;
// An instruction cache line (sim::InstCache): tag, ready cycle and last use.
inline constexpr std::uint64_t kInstCacheLineStateBytes = 24;
// An MSHR (memsys::MshrTable): the entry, its free/active slots and index buckets.
inline constexpr std::uint64_t kMshrEntryBytes = 96;
// A warp slot of an SM (sim::Warp, 3,144 bytes, and its warpgroup state).
inline constexpr std::uint64_t kWarpSlotBytes = 4096;

// The default limit, and the environment variable that replaces it (GiB, > 0).
inline constexpr double kDefaultMemoryLimitGib = 16;
inline constexpr const char* kMemoryLimitVariable = "SASSIM_MEMORY_LIMIT_GB";

struct MemoryPart {
  std::string fields;  // what sets it: "l2.size_bytes = 41943040 / l2.line_bytes = 128"
  double bytes = 0;
};

// The parts of the estimate, largest first.
std::vector<MemoryPart> memory_estimate(const GpuConfig& config);

// Appends a problem when the estimate exceeds the limit ($SASSIM_MEMORY_LIMIT_GB GiB, else
// kDefaultMemoryLimitGib), naming the fields of the parts that dominate it; or when the
// variable is not a positive number.
void check_memory_estimate(const GpuConfig& config, std::vector<std::string>& problems);

}  // namespace sassim::config
