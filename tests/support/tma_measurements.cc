#include "tests/support/tma_measurements.h"

#include <algorithm>

#include "tests/memsys/memsys_test_support.h"
#include "tests/support/memory_measurements.h"

namespace sassim::measure {

double tma_load_latency(const config::GpuConfig& config, std::uint32_t bytes, bool far,
                        std::uint32_t samples) {
  memsys::testing::Rig rig(config);
  const std::uint64_t line = config.l2().line_bytes();
  // Lines 64 KiB apart, so that each copy of up to 64 KiB starts in its own line.
  const std::vector<std::uint64_t> starts = partition_lines(config, far, 0x100000, samples, 65536);
  for (std::uint64_t a : starts)
    rig.memory->memcpy_to_device(a, std::max<std::uint64_t>(bytes, line));
  Picos total = 0;
  for (std::uint32_t i = 0; i < samples; ++i) {
    memsys::TmaCopy copy;
    copy.token = i;
    copy.kind = memsys::TmaKind::kLoad;
    copy.bytes = bytes;
    copy.transfers = {starts[i]};
    rig.sm(0).tma(rig.now(), copy);
    rig.run();
    total += rig.sm(0).latency(i);
  }
  return static_cast<double>(total) / samples / static_cast<double>(rig.clocks.core.period_ps);
}

}  // namespace sassim::measure
