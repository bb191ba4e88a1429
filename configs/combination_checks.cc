#include "configs/combination_checks.h"

#include <algorithm>
#include <cstdint>

#include <fmt/format.h>

#include "configs/deadlock_check.h"
#include "configs/memory_estimate.h"

namespace sassim::config {

namespace {

bool is_power_of_two(std::uint64_t value) {
  return value != 0 && (value & (value - 1)) == 0;
}

// Lines are a power of two and whole sectors.
void check_line(const std::string& cache, std::uint32_t line, std::uint32_t sector,
                std::vector<std::string>& problems) {
  if (!is_power_of_two(line)) {
    problems.push_back(fmt::format("{}.line_bytes = {} is not a power of two", cache, line));
  }
  if (line % sector != 0) {
    problems.push_back(fmt::format("{}.line_bytes = {} is not a multiple of {}.sector_bytes = {}",
                                   cache, line, cache, sector));
  }
}

// `bytes` of cache (described by `what`) must hold a whole number (>= 1) of sets.
void check_sets(const std::string& what, std::uint64_t bytes, const std::string& cache,
                std::uint32_t line, std::uint32_t ways, std::vector<std::string>& problems) {
  const std::uint64_t set_bytes = std::uint64_t{line} * ways;
  if (bytes < set_bytes || bytes % set_bytes != 0) {
    problems.push_back(fmt::format(
        "{} = {} bytes does not divide into whole sets of {}.line_bytes x {}.associativity = "
        "{} x {} = {} bytes",
        what, bytes, cache, cache, line, ways, set_bytes));
  }
}

void check_l1(const L1Config& l1, std::vector<std::string>& problems) {
  if (l1.shared_memory_bytes() > l1.unified_size_bytes()) {
    problems.push_back(fmt::format("l1.shared_memory_bytes = {} exceeds l1.unified_size_bytes = {}",
                                   l1.shared_memory_bytes(), l1.unified_size_bytes()));
  }
  if (l1.max_shared_per_cta_bytes() > l1.shared_memory_bytes()) {
    problems.push_back(
        fmt::format("l1.max_shared_per_cta_bytes = {} exceeds l1.shared_memory_bytes = {}",
                    l1.max_shared_per_cta_bytes(), l1.shared_memory_bytes()));
  }
  check_line("l1", l1.line_bytes(), l1.sector_bytes(), problems);
  // The data part is what the largest carve-out leaves; without one (reported above) there
  // is no data part to check.
  const bool has_data_part = l1.shared_memory_bytes() <= l1.unified_size_bytes();
  const std::uint64_t base_data =
      has_data_part ? l1.unified_size_bytes() - l1.shared_memory_bytes() : 0;
  if (has_data_part) {
    check_sets("the L1 data part (l1.unified_size_bytes - l1.shared_memory_bytes)", base_data, "l1",
               l1.line_bytes(), l1.associativity(), problems);
  }
  // Every carve-out leaves a data part of whole sets of the base data part's geometry.
  const std::uint64_t set_bytes = std::uint64_t{l1.line_bytes()} * l1.associativity();
  for (std::uint32_t option : l1.shared_carveout_options_bytes()) {
    if (option > l1.shared_memory_bytes()) {
      problems.push_back(fmt::format(
          "l1.shared_carveout_options_bytes: {} exceeds l1.shared_memory_bytes = {} (the largest "
          "carve-out)",
          option, l1.shared_memory_bytes()));
    } else if (has_data_part && set_bytes != 0 && base_data != 0 && base_data % set_bytes == 0) {
      // option <= shared_memory_bytes <= unified_size_bytes: no underflow.
      const std::uint64_t sets = base_data / set_bytes;
      const std::uint64_t data = std::uint64_t{l1.unified_size_bytes()} - option;
      if (data % (sets * l1.line_bytes()) != 0) {
        problems.push_back(fmt::format(
            "l1.shared_carveout_options_bytes: {} leaves {} bytes of L1 data, not a whole number "
            "of ways of the {} sets of {}-byte lines the base data part has",
            option, data, sets, l1.line_bytes()));
      }
    }
  }
}

void check_l2(const L2Config& l2, std::vector<std::string>& problems) {
  check_line("l2", l2.line_bytes(), l2.sector_bytes(), problems);
  if (l2.size_bytes() % l2.slices() != 0) {
    problems.push_back(fmt::format("l2.size_bytes = {} does not split evenly over l2.slices = {}",
                                   l2.size_bytes(), l2.slices()));
  } else {
    check_sets("one L2 slice (l2.size_bytes / l2.slices)", l2.size_bytes() / l2.slices(), "l2",
               l2.line_bytes(), l2.associativity(), problems);
  }
  const std::uint32_t fetch = l2.fetch_granularity_bytes();
  if (fetch != 0 &&
      (!is_power_of_two(fetch) || fetch < l2.sector_bytes() || fetch > l2.line_bytes())) {
    problems.push_back(fmt::format(
        "l2.fetch_granularity_bytes = {} is not a power of two from l2.sector_bytes = {} to "
        "l2.line_bytes = {} (or 0: one sector)",
        fetch, l2.sector_bytes(), l2.line_bytes()));
  }
}

void check_interconnect(const InterconnectConfig& noc, std::vector<std::string>& problems) {
  if (noc.request_port_bytes_per_cycle() > noc.port_bytes_per_cycle()) {
    problems.push_back(fmt::format(
        "interconnect.request_port_bytes_per_cycle = {} is wider than "
        "interconnect.port_bytes_per_cycle = {}: it sets a narrower sending direction (0: the "
        "same)",
        noc.request_port_bytes_per_cycle(), noc.port_bytes_per_cycle()));
  }
}

void check_sm(const SmConfig& sm, std::vector<std::string>& problems) {
  constexpr std::uint64_t kWarpSize = 32;
  if (sm.max_threads() > sm.max_warps() * kWarpSize) {
    problems.push_back(fmt::format("sm.max_threads = {} exceeds sm.max_warps x 32 = {} x 32 = {}",
                                   sm.max_threads(), sm.max_warps(), sm.max_warps() * kWarpSize));
  }
  if (sm.max_warps() % sm.sub_cores() != 0) {
    problems.push_back(fmt::format("sm.max_warps = {} is not a multiple of sm.sub_cores = {}",
                                   sm.max_warps(), sm.sub_cores()));
  }
  const MioQueueConfig& queue = sm.mio_queue();
  if (queue.global_local_entries() > queue.entries()) {
    problems.push_back(
        fmt::format("sm.mio_queue.global_local_entries = {} exceeds sm.mio_queue.entries = {}",
                    queue.global_local_entries(), queue.entries()));
  }
  // Keys are base mnemonics as the SASS tables spell them; values share the
  // range of the class latencies.
  for (const auto& [mnemonic, cycles] : sm.opcode_latency_cycles()) {
    const bool well_formed = !mnemonic.empty() && mnemonic[0] >= 'A' && mnemonic[0] <= 'Z' &&
                             std::all_of(mnemonic.begin(), mnemonic.end(), [](char c) {
                               return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
                             });
    if (!well_formed) {
      problems.push_back(fmt::format(
          "sm.opcode_latency_cycles key \"{}\" is not a base SASS mnemonic (upper case, no "
          "modifiers, e.g. \"IMAD\")",
          mnemonic));
    }
    if (cycles < 1 || cycles > 10000) {
      problems.push_back(
          fmt::format("sm.opcode_latency_cycles.{} = {} is out of range [1, 10000] core cycles",
                      mnemonic, cycles));
    }
  }
}

void check_dram(const GpuConfig& config, std::vector<std::string>& problems) {
  const DramConfig& dram = config.dram();
  const std::uint32_t line = config.l2().line_bytes();
  if (line != 0 && dram.row_bytes() % line != 0) {
    problems.push_back(fmt::format("dram.row_bytes = {} is not a multiple of l2.line_bytes = {}",
                                   dram.row_bytes(), line));
  }
  if (dram.t_refi_ns() > 0 && dram.t_rfc_pb_ns() >= dram.t_refi_ns()) {
    problems.push_back(fmt::format("dram.t_rfc_pb_ns = {} must be below dram.t_refi_ns = {}",
                                   dram.t_rfc_pb_ns(), dram.t_refi_ns()));
  }
  if (dram.t_refi_ns() > 0 && dram.t_rfc_ns() >= dram.t_refi_ns()) {
    problems.push_back(fmt::format("dram.t_rfc_ns = {} must be below dram.t_refi_ns = {}",
                                   dram.t_rfc_ns(), dram.t_refi_ns()));
  }
}

// The GPCs hold every SM once (sim/gpc_layout.h).
void check_cluster(const GpuConfig& config, std::vector<std::string>& problems) {
  const auto& gpcs = config.cluster().gpc_sms();
  if (gpcs.empty()) return;
  std::uint64_t sum = 0;
  std::string terms;
  for (int i = 0; i < gpcs.size(); ++i) {
    if (gpcs[i] == 0) {
      problems.push_back(
          fmt::format("cluster.gpc_sms[{}] = 0: expected at least 1 SM in every GPC", i));
    }
    sum += gpcs[i];
    terms += fmt::format("{}{}", i == 0 ? "" : " + ", gpcs[i]);
  }
  if (sum != config.num_sms()) {
    problems.push_back(fmt::format(
        "cluster.gpc_sms sums to {} = {} SMs but num_sms = {}: expected the GPCs to hold every SM "
        "once",
        terms, sum, config.num_sms()));
  }
}

}  // namespace

void check_combinations(const GpuConfig& config, std::vector<std::string>& problems) {
  check_sm(config.sm(), problems);
  check_l1(config.l1(), problems);
  check_l2(config.l2(), problems);
  check_interconnect(config.interconnect(), problems);
  check_dram(config, problems);
  check_cluster(config, problems);
  check_deadlock_cycles(config, problems);
  check_energy(config, problems);
  // Sizes that do not divide into sets are reported above; the estimate needs whole ones.
  if (problems.empty()) check_memory_estimate(config, problems);
}

}  // namespace sassim::config
