#pragma once
// What the memory system needs from a GpuConfig: the checks it relies on and the
// values derived from the fields. configs/derived.h will own the shared derivations
// (l1_data_bytes, dram_clock_mhz, dram_peak_bytes_per_second); until it lands they
// are computed here, by the same definitions.
#include <cstdint>

#include "configs/sassim_config.pb.h"
#include "memsys/unit.h"

namespace sassim::memsys {

struct DomainClocks {
  Clock core;
  Clock l2;
  Clock dram;
};

// L1 data cache capacity: the unified array less the shared memory carve-out.
std::uint64_t l1_data_bytes(const config::L1Config& l1);
// DRAM command clock: two transfers per clock (data_rate_mtps / 2).
double dram_clock_mhz(const config::DramConfig& dram);
// channels x bus_width_bits / 8 x data_rate_mtps x 1e6.
double dram_peak_bytes_per_second(const config::DramConfig& dram);
// Clocks of the three domains (periods rounded to whole picoseconds).
DomainClocks domain_clocks(const config::GpuConfig& config);

// Throws sassim::Error naming the field when something the memory system needs is
// missing or the combination cannot be built (sector geometry, carve-out, ...).
void check_memsys_config(const config::GpuConfig& config);

}  // namespace sassim::memsys
