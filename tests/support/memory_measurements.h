#pragma once
// Memory-hierarchy figures measured by running generated traces through the whole
// simulator (or, for DRAM streams, the memory system under mock SMs): what the
// end-to-end tests check and tests/validation/validate_memory reports.
#include <cstdint>
#include <string>
#include <vector>

#include "configs/sassim_config.pb.h"

namespace sassim::measure {

// count addresses base, base + stride, ...
std::vector<std::uint64_t> lines(std::uint64_t base, std::uint64_t count, std::uint64_t stride);

// The first `count` of base, base + stride, ... whose L2 slice is in a partition SM 0
// is near (far = false) or not near (far = true).
std::vector<std::uint64_t> partition_lines(const config::GpuConfig& config, bool far,
                                           std::uint64_t base, std::uint64_t count,
                                           std::uint64_t stride);

// Pointer chase of one thread (on SM 0): cycles per load of the second pass over
// `pass` (the first warms the caches). Each figure is the difference of two kernels'
// cycles divided by the extra dependent loads, so launch and drain costs cancel.
double second_pass_latency(const config::GpuConfig& config, const std::string& opcode,
                           const std::vector<std::uint64_t>& pass);
// Cycles per load of the chase over `more` after the chase over `few` (a prefix of
// `more`), each from a cold start.
double cold_latency(const config::GpuConfig& config, const std::vector<std::uint64_t>& few,
                    const std::vector<std::uint64_t>& more, const std::string& opcode = "LDG.E");

struct ZeroLoadLatencies {
  double l1 = 0, shared = 0;
  double l2_near = 0, l2_far = 0, l2_mixed = 0;        // mixed: lines over every slice
  double dram_near = 0, dram_far = 0, dram_mixed = 0;  // cold misses
  double dram_sector_stride = 0;  // a cold chase 32 bytes a step (l2.fetch_granularity_bytes)
};
ZeroLoadLatencies zero_load_latencies(const config::GpuConfig& config);

// Cycles per dependent shared load of a full warp whose 32 addresses fall n to a
// bank (n = 1: conflict-free), n a power of two up to 32.
double shared_conflict_latency(const config::GpuConfig& config, std::uint32_t n);

// L2 bandwidth: every SM's warps read their own 8 KiB of an L2-resident footprint
// again and again with wide loads that bypass the L1 (warmed by a first pass); bytes
// delivered per core cycle, from the difference of a long (6 passes) and a short (2
// passes) kernel, so ramp-up, drain and warp start-up cancel.
double l2_bytes_per_cycle(const config::GpuConfig& config);

struct DramStream {
  double bytes_per_second = 0;
  double peak = 0;
  // A channel counts a request's bytes when it starts it, so a window can hold up to
  // one line per channel more than the peak allows: the measurement's upper bound.
  double upper_bound = 0;
  double total_bytes = 0;  // read by the whole run (every byte once)
};
// The SMs stream one array together, 512 contiguous bytes per warp instruction, the
// grid's blocks in order and SM-interleaved (as a grid-stride copy kernel), all
// submitted at once, through the memory system under mock SMs. Bandwidth over the
// middle of the run (25% to 75% of the loads completed).
DramStream dram_stream_reads(const config::GpuConfig& config, std::uint32_t warps_per_sm);
// The same with a store of each 512 bytes to another region after its load (a
// device-to-device copy); DRAM read plus write bytes per second. The L2 is cut to 16
// sets per slice so that the copy's dirty lines are written back within a short run.
double dram_copy_bytes_per_second(const config::GpuConfig& config, std::uint32_t warps_per_sm);

}  // namespace sassim::measure
