#pragma once
// The GPU's memory system built from a config: per-SM L1/shared units, the
// interconnect, the L2 slices and the DRAM channels, all as clocked units.
#include <cstdint>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "configs/sassim_config.pb.h"
#include "ground/unit.h"
#include "memsys/hub_traffic.h"
#include "memsys/sm_memory_port.h"

namespace sassim::memsys {

class MemorySystem {
 public:
  virtual ~MemorySystem() = default;
  // Port of SM sm_id (0 <= sm_id < num_sms).
  virtual SmMemoryPort& port(std::uint32_t sm_id) = 0;
  // The traffic of the GPU's collectives, on the crossbar's hub port (one of units()).
  virtual HubTraffic& hub() = 0;
  // Every unit with its clock domain, in the order they must be ticked within an
  // edge: back to front (DRAM, L2, interconnect, the hub, then the per-SM units).
  virtual std::vector<std::pair<ClockDomain, ClockedUnit*>> units() = 0;
  // Groups of its units that may tick on different host threads (Engine::set_tiles),
  // by clock domain; none by default.
  virtual std::vector<std::pair<ClockDomain, std::vector<std::vector<ClockedUnit*>>>> tiles() {
    return {};
  }
  // A host-to-device copy: the bytes become L2-resident (warms the L2).
  virtual void memcpy_to_device(std::uint64_t address, std::uint64_t bytes) = 0;
  // One warp's global access of work that sampling skipped (sim/cta_warmup.h): the lines
  // it touches, functionally, in their home slices (L2Slice::warm). Call between ticks.
  virtual void warm_l2(std::span<const std::uint64_t> addresses, std::uint32_t bytes_per_thread,
                       bool write) = 0;
  // Empties every L2 slice (its far-line copies too), as a profiler's cache flush before
  // a kernel does outside the kernel's time: dirty lines are written back then, so they
  // cost the kernel nothing. Call only while the memory system is idle.
  virtual void flush_l2() = 0;
};

// Builds the memory system of a resolved, validated config.
std::unique_ptr<MemorySystem> make_memory_system(const config::GpuConfig& config);

}  // namespace sassim::memsys
