#include "tests/support/memory_measurements.h"

#include <memory>
#include <string>

#include "configs/derived.h"
#include "memsys/address_map.h"
#include "memsys/noc_routes.h"
#include "sim/gpu.h"
#include "tests/memsys/memsys_test_support.h"
#include "tests/support/chase_traces.h"
#include "traces/text_trace.h"

namespace sassim::measure {
namespace {

int binary_version(const config::GpuConfig& config) {
  return std::stoi(config.arch().substr(3));
}

std::vector<sim::KernelResult> run_texts(const config::GpuConfig& config,
                                         std::vector<std::string> texts) {
  std::vector<std::unique_ptr<traces::KernelTrace>> kernels;
  for (std::string& text : texts)
    kernels.push_back(traces::kernel_from_text(std::move(text), "measure"));
  auto workload = traces::workload_from_kernels(std::move(kernels));
  // Latencies and bandwidths are timed from the first issue, as microbenchmarks time
  // them with the SM clock: the grid's and the CTA's launch stay out.
  config::GpuConfig measured = config;
  measured.mutable_sm()->set_cta_launch_latency_cycles(0);
  measured.mutable_sm()->set_grid_launch_cycles(0);
  measured.mutable_sm()->set_grid_launch_ns(0);
  sim::Gpu gpu(measured);
  return gpu.run(*workload);
}

std::uint64_t chase_cycles(const config::GpuConfig& config, const std::string& opcode,
                           const std::vector<std::vector<std::uint64_t>>& addresses) {
  return run_texts(config, {chase_trace(opcode, addresses, binary_version(config))}).at(0).cycles;
}

// One active lane per load.
std::vector<std::vector<std::uint64_t>> single_lane(const std::vector<std::uint64_t>& pass) {
  std::vector<std::vector<std::uint64_t>> out;
  for (std::uint64_t a : pass) out.push_back({a});
  return out;
}

template <typename T>
std::vector<T> twice(const std::vector<T>& pass) {
  std::vector<T> out = pass;
  out.insert(out.end(), pass.begin(), pass.end());
  return out;
}

double second_pass(const config::GpuConfig& config, const std::string& opcode,
                   const std::vector<std::vector<std::uint64_t>>& pass) {
  const auto one = chase_cycles(config, opcode, pass);
  const auto two = chase_cycles(config, opcode, twice(pass));
  return static_cast<double>(two - one) / static_cast<double>(pass.size());
}

}  // namespace

std::vector<std::uint64_t> lines(std::uint64_t base, std::uint64_t count, std::uint64_t stride) {
  std::vector<std::uint64_t> out;
  for (std::uint64_t i = 0; i < count; ++i) out.push_back(base + i * stride);
  return out;
}

std::vector<std::uint64_t> partition_lines(const config::GpuConfig& config, bool far,
                                           std::uint64_t base, std::uint64_t count,
                                           std::uint64_t stride) {
  const memsys::AddressMap map(config.l2().slices(), config.dram().channels(),
                               config.l2().address_hash());
  const memsys::NocRoutes routes = memsys::NocRoutes::crossbar(
      config.num_sms(), config.l2().slices(), config.interconnect().l2_partitions());
  std::vector<std::uint64_t> out;
  for (std::uint64_t a = base; out.size() < count; a += stride) {
    if (routes.far(0, map.slice_of(a / config.l2().line_bytes())) == far) out.push_back(a);
  }
  return out;
}

double second_pass_latency(const config::GpuConfig& config, const std::string& opcode,
                           const std::vector<std::uint64_t>& pass) {
  return second_pass(config, opcode, single_lane(pass));
}

double cold_latency(const config::GpuConfig& config, const std::vector<std::uint64_t>& few,
                    const std::vector<std::uint64_t>& more, const std::string& opcode) {
  const auto a = chase_cycles(config, opcode, single_lane(few));
  const auto b = chase_cycles(config, opcode, single_lane(more));
  return static_cast<double>(b - a) / static_cast<double>(more.size() - few.size());
}

ZeroLoadLatencies zero_load_latencies(const config::GpuConfig& config) {
  ZeroLoadLatencies z;
  z.l1 = second_pass_latency(config, "LDG.E", lines(0x20000000, 16, 128));
  z.shared = second_pass_latency(config, "LDS", lines(0, 16, 128));
  // 4096 lines (512 KiB) overflow any L1 but stay in L2.
  z.l2_mixed = second_pass_latency(config, "LDG.E", lines(0x30000000, 4096, 128));
  z.l2_near =
      second_pass_latency(config, "LDG.E", partition_lines(config, false, 0x30000000, 4096, 128));
  // A far line's first read from SM 0's side: with interconnect.replicate_far_reads the
  // second pass would find copies near.
  config::GpuConfig first_read = config;
  first_read.mutable_interconnect()->set_replicate_far_reads(false);
  z.l2_far = second_pass_latency(first_read, "LDG.E",
                                 partition_lines(config, true, 0x30000000, 4096, 128));
  // Cold misses 4 KiB apart: 64 then 192 distinct lines.
  auto cold = [&](const std::vector<std::uint64_t>& all) {
    return cold_latency(config, {all.begin(), all.begin() + 64}, all);
  };
  z.dram_mixed = cold(lines(0x10000000, 192, 4096));
  z.dram_near = cold(partition_lines(config, false, 0x10000000, 192, 4096));
  z.dram_far = cold(partition_lines(config, true, 0x10000000, 192, 4096));
  // The DRAM chase of Luo et al.'s programs (and Accel-Sim's mem_lat): 64-bit pointers
  // 32 bytes apart, read with ld.global.cg (LDG.E.64.STRONG.GPU, past the L1), over an
  // array no cache holds: four steps a line, 64 then 256 steps.
  const std::vector<std::uint64_t> steps = lines(0x10000000, 256, 32);
  z.dram_sector_stride =
      cold_latency(config, {steps.begin(), steps.begin() + 64}, steps, "LDG.E.64.STRONG.GPU");
  return z;
}

double shared_conflict_latency(const config::GpuConfig& config, std::uint32_t n) {
  const std::uint32_t banks = 32 / n;  // lanes t and t + banks share a bank, one row apart
  std::vector<std::uint64_t> lanes;
  for (std::uint32_t t = 0; t < 32; ++t) lanes.push_back((t / banks) * 128 + (t % banks) * 4);
  return second_pass(config, "LDS", std::vector<std::vector<std::uint64_t>>(16, lanes));
}

double l2_bytes_per_cycle(const config::GpuConfig& config) {
  constexpr std::uint32_t kWarps = 16;
  constexpr std::uint32_t kRegion = 16;  // loads' bytes per warp: 8 KiB, 15 MB on 114 SMs
  constexpr std::uint32_t kLong = 6 * kRegion, kShort = 2 * kRegion;  // loads per warp
  constexpr std::uint64_t kBase = 0x40000000;
  const std::uint32_t ctas = config.num_sms();
  const int version = binary_version(config);
  auto pass = [&](std::uint32_t loads, std::uint32_t id) {
    return stream_trace(ctas, kWarps, loads, kBase, version, id, kRegion, true);
  };
  const auto results = run_texts(config, {pass(kRegion, 1), pass(kShort, 2), pass(kLong, 3)});
  const double extra_bytes = static_cast<double>(ctas) * kWarps * (kLong - kShort) * 512;
  return extra_bytes / static_cast<double>(results.at(2).cycles - results.at(1).cycles);
}

namespace {

using memsys::testing::Rig;
using memsys::testing::strided;

struct Rate {
  double bytes_per_second = 0;
  double seconds = 0;  // of the window measured
};

// The 512-byte block of warp instruction w of SM sm in a DRAM stream: the grid's blocks in
// order, SM-interleaved, as a grid-stride or block-per-chunk kernel (PyTorch's copy, the
// measured 4.3 TB/s) covers its arrays: the requests in flight at a time are close
// together, and a channel's successive requests often share a row. (Giving each SM a
// region of its own instead puts every request of a channel in another row: the h200 copy
// then reaches 80.5% of peak, not 87.0%.)
std::uint64_t grid_block(std::uint32_t sm, std::uint32_t w, std::uint32_t sms) {
  return (std::uint64_t{w} * sms + sm) * 512;
}

// Runs the rig's scripted accesses; DRAM read (and write) bytes per second over the
// middle of the run.
Rate middle_rate(Rig& rig, std::size_t total, bool with_writes) {
  const std::uint32_t sms = rig.config.num_sms();
  auto completed = [&] {
    std::size_t n = 0;
    for (std::uint32_t sm = 0; sm < sms; ++sm) n += rig.sm(sm).completed_count();
    return n;
  };
  auto dram_bytes = [&] {
    const auto stats = rig.stats();
    return stats.sum("gpu.dram.channel[", "read_bytes") +
           (with_writes ? stats.sum("gpu.dram.channel[", "write_bytes") : 0.0);
  };
  rig.engine.run_until([&] { return completed() >= total / 4; });
  const Picos t0 = rig.now();
  const double b0 = dram_bytes();
  rig.engine.run_until([&] { return completed() >= total * 3 / 4; });
  const Picos t1 = rig.now();
  const double b1 = dram_bytes();
  rig.run();
  const double seconds = static_cast<double>(t1 - t0) * 1e-12;
  return Rate{(b1 - b0) / seconds, seconds};
}

}  // namespace

DramStream dram_stream_reads(const config::GpuConfig& config, std::uint32_t warps_per_sm) {
  Rig rig(config);
  const std::uint32_t sms = config.num_sms();
  for (std::uint32_t sm = 0; sm < sms; ++sm) {
    for (std::uint32_t w = 0; w < warps_per_sm; ++w) {
      const std::uint64_t base = grid_block(sm, w, sms);
      rig.sm(sm).load(0, w, strided(base, 16), 16);
    }
  }
  const std::size_t total = std::size_t{sms} * warps_per_sm;
  const Rate rate = middle_rate(rig, total, false);
  DramStream s;
  s.bytes_per_second = rate.bytes_per_second;
  s.total_bytes = rig.stats().sum("gpu.dram.channel[", "read_bytes");
  s.peak = config::dram_peak_bytes_per_second(config);
  s.upper_bound = s.peak + static_cast<double>(config.dram().channels()) *
                               config.l2().line_bytes() / rate.seconds;
  return s;
}

double dram_copy_bytes_per_second(const config::GpuConfig& preset, std::uint32_t warps_per_sm) {
  constexpr std::uint64_t kRegion = std::uint64_t{1} << 30;  // destination offset
  config::GpuConfig config = preset;
  config.mutable_l2()->set_size_bytes(std::uint64_t{config.l2().slices()} * 16 *
                                      config.l2().associativity() * config.l2().line_bytes());
  Rig rig(config);
  const std::uint32_t sms = config.num_sms();
  for (std::uint32_t sm = 0; sm < sms; ++sm) {
    for (std::uint32_t w = 0; w < warps_per_sm; ++w) {
      const std::uint64_t base = grid_block(sm, w, sms);
      rig.sm(sm).load(0, 2 * w, strided(base, 16), 16);
      rig.sm(sm).schedule(0, 2 * w + 1, isa::MemSpace::kGlobal, isa::MemKind::kStore,
                          strided(kRegion + base, 16), 16);
    }
  }
  return middle_rate(rig, std::size_t{sms} * warps_per_sm * 2, true).bytes_per_second;
}

}  // namespace sassim::measure
