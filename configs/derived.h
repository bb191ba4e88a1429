#pragma once
// Values derived from a config. This is the one place they are computed; units use
// these functions instead of repeating the arithmetic.
#include <cstdint>
#include <string>

#include "configs/sassim_config.pb.h"

namespace sassim::config {

// Peak DRAM bandwidth: channels x bus_width_bits / 8 x data_rate_mtps x 1e6 bytes/s.
double dram_peak_bytes_per_second(const GpuConfig& config);

// Clock of the DRAM domain, in MHz: the interface clock on whose two edges the data
// pins carry one symbol each. HBM2/2e/3/3e, GDDR5 and GDDR6 are double data rate on
// that clock (HBM's CK, GDDR's WCK): data_rate / 2. GDDR5X moves four bits per pin
// per WCK cycle (QDR) and GDDR6X two PAM4 symbols of two bits each: data_rate / 4.
// (GDDR's command clock CK is slower still; DRAM timing parameters are to be given in
// this data clock.) Throws sassim::Error for an unknown dram.type.
double dram_clock_mhz(const GpuConfig& config);

// Part of the unified L1 / shared array that caches data: unified - shared bytes.
std::uint32_t l1_data_bytes(const GpuConfig& config);
// The L1 data part with the smallest shared-memory carve-out the config allows (the
// most the L1 data cache can ever hold): l1_data_bytes without carve-out options.
std::uint32_t l1_max_data_bytes(const GpuConfig& config);
// The carve-out a kernel runs with (l1.shared_carveout_options_bytes) when
// `resident_ctas` of its CTAs, each using `shared_per_cta` bytes, fit on an SM by every
// other limit; l1.shared_memory_bytes without options or when none is large enough.
std::uint32_t shared_carveout_bytes(const GpuConfig& config, std::uint32_t resident_ctas,
                                    std::uint32_t shared_per_cta);

// Unloaded latency of a load that hits the L2 partition near its SM, in core cycles,
// as the memory model adds it up (memsys/l1_unit.h) for a chain of loads each addressed
// by the last one's result: sm.units.memory.latency_cycles + l1.hit_latency_cycles +
// sm.load_to_memory_operand_cycles + (2 x interconnect.latency_cycles (at least 1) +
// l2.hit_latency_cycles) L2 cycles at clocks.core_mhz / clocks.l2_mhz, rounded.
std::uint32_t l2_hit_latency_cycles(const GpuConfig& config);

// Capacity of one L2 slice: l2.size_bytes / l2.slices.
std::uint64_t l2_slice_bytes(const GpuConfig& config);

// Preset that models a trace's "-binary version" (60, 61, 70, 75, 80, 86, 89, 90);
// throws sassim::Error naming the known versions for any other.
std::string preset_for_binary_version(int binary_version);

}  // namespace sassim::config
