#pragma once
// What the memory system needs from a GpuConfig beyond configs/derived.h: the
// checks it relies on and the clocks of its three domains.
#include <cstdint>

#include "configs/sassim_config.pb.h"
#include "ground/unit.h"

namespace sassim::memsys {

struct DomainClocks {
  Clock core;
  Clock l2;
  Clock dram;
};

// Clocks of the three domains (periods rounded to whole picoseconds): core and L2
// from clocks.*, DRAM from config::dram_clock_mhz. The engine must use these.
DomainClocks domain_clocks(const config::GpuConfig& config);

// Throws sassim::Error naming the field when something the memory system needs is
// missing or the combination cannot be built (sector geometry, carve-out, ...).
void check_memsys_config(const config::GpuConfig& config);

}  // namespace sassim::memsys
