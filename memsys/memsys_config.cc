#include "memsys/memsys_config.h"

#include <string_view>

#include <fmt/format.h>

#include "configs/derived.h"
#include "ground/error.h"

namespace sassim::memsys {
namespace {

void require(bool present, std::string_view field) {
  if (!present) throw Error(fmt::format("{}: missing (required by the memory system)", field));
}

void require_positive(double value, std::string_view field) {
  if (!(value > 0)) throw Error(fmt::format("{}: must be positive, got {}", field, value));
}

void check_geometry(std::uint32_t line_bytes, std::uint32_t sector_bytes, std::string_view prefix) {
  require_positive(sector_bytes, fmt::format("{}.sector_bytes", prefix));
  if (line_bytes % sector_bytes != 0 || line_bytes / sector_bytes > 32) {
    throw Error(
        fmt::format("{}.line_bytes: {} must be a multiple of {}.sector_bytes ({}) with at most "
                    "32 sectors per line",
                    prefix, line_bytes, prefix, sector_bytes));
  }
}

}  // namespace

DomainClocks domain_clocks(const config::GpuConfig& config) {
  return DomainClocks{Clock::from_mhz(config.clocks().core_mhz()),
                      Clock::from_mhz(config.clocks().l2_mhz()),
                      Clock::from_mhz(config::dram_clock_mhz(config))};
}

void check_memsys_config(const config::GpuConfig& c) {
  require(c.has_num_sms(), "num_sms");
  require_positive(c.num_sms(), "num_sms");
  if (c.num_sms() > 65535) throw Error(fmt::format("num_sms: {} exceeds 65535", c.num_sms()));
  require(c.clocks().has_core_mhz(), "clocks.core_mhz");
  require(c.clocks().has_l2_mhz(), "clocks.l2_mhz");
  require_positive(c.clocks().core_mhz(), "clocks.core_mhz");
  require_positive(c.clocks().l2_mhz(), "clocks.l2_mhz");

  const config::L1Config& l1 = c.l1();
  require(l1.has_unified_size_bytes(), "l1.unified_size_bytes");
  require(l1.has_shared_memory_bytes(), "l1.shared_memory_bytes");
  require(l1.has_associativity(), "l1.associativity");
  require(l1.has_hit_latency_cycles(), "l1.hit_latency_cycles");
  require(l1.has_shared_latency_cycles(), "l1.shared_latency_cycles");
  require(l1.has_mshr_entries(), "l1.mshr_entries");
  require(l1.has_data_bytes_per_cycle(), "l1.data_bytes_per_cycle");
  if (l1.shared_memory_bytes() > l1.unified_size_bytes()) {
    throw Error(fmt::format("l1.shared_memory_bytes: {} exceeds l1.unified_size_bytes ({})",
                            l1.shared_memory_bytes(), l1.unified_size_bytes()));
  }
  check_geometry(l1.line_bytes(), l1.sector_bytes(), "l1");
  require_positive(l1.hit_latency_cycles(), "l1.hit_latency_cycles");
  require_positive(l1.shared_latency_cycles(), "l1.shared_latency_cycles");
  require_positive(l1.mshr_entries(), "l1.mshr_entries");
  require_positive(l1.data_bytes_per_cycle(), "l1.data_bytes_per_cycle");
  require_positive(l1.tag_lookups_per_cycle(), "l1.tag_lookups_per_cycle");
  require_positive(l1.lsu_queue_entries(), "l1.lsu_queue_entries");
  require_positive(l1.shared_banks(), "l1.shared_banks");
  require_positive(l1.shared_bank_bytes(), "l1.shared_bank_bytes");
  if (l1.shared_banks() > 128)
    throw Error(fmt::format("l1.shared_banks: {} exceeds 128", l1.shared_banks()));

  const config::InterconnectConfig& noc = c.interconnect();
  require(noc.has_latency_cycles(), "interconnect.latency_cycles");
  require(noc.has_port_bytes_per_cycle(), "interconnect.port_bytes_per_cycle");
  require_positive(noc.port_bytes_per_cycle(), "interconnect.port_bytes_per_cycle");
  require_positive(noc.queue_entries(), "interconnect.queue_entries");
  if (noc.l2_partitions() == 0 || noc.l2_partitions() > c.l2().slices() ||
      noc.l2_partitions() > c.num_sms()) {
    throw Error(fmt::format(
        "interconnect.l2_partitions: {} must be at least 1 and at most l2.slices ({}) and "
        "num_sms ({})",
        noc.l2_partitions(), c.l2().slices(), c.num_sms()));
  }
  if (noc.replicate_far_reads() && c.l2().slices() % noc.l2_partitions() != 0) {
    throw Error(fmt::format(
        "interconnect.replicate_far_reads needs l2.slices ({}) to be a multiple of "
        "interconnect.l2_partitions ({}): a copy sits at its home slice's position in the "
        "other partition",
        c.l2().slices(), noc.l2_partitions()));
  }
  if (noc.near_slice_serves_far_reads() && !noc.replicate_far_reads()) {
    throw Error(
        "interconnect.near_slice_serves_far_reads needs interconnect.replicate_far_reads: the "
        "near slice serves the copies that option makes");
  }

  const config::L2Config& l2 = c.l2();
  require(l2.has_size_bytes(), "l2.size_bytes");
  require(l2.has_slices(), "l2.slices");
  require(l2.has_associativity(), "l2.associativity");
  require(l2.has_hit_latency_cycles(), "l2.hit_latency_cycles");
  require(l2.has_slice_bytes_per_cycle(), "l2.slice_bytes_per_cycle");
  require(l2.has_mshr_entries(), "l2.mshr_entries");
  require_positive(l2.slices(), "l2.slices");
  if (l2.size_bytes() % l2.slices() != 0) {
    throw Error(fmt::format("l2.size_bytes: {} is not divisible by l2.slices ({})", l2.size_bytes(),
                            l2.slices()));
  }
  check_geometry(l2.line_bytes(), l2.sector_bytes(), "l2");
  if (l2.line_bytes() != l1.line_bytes() || l2.sector_bytes() != l1.sector_bytes()) {
    throw Error(fmt::format(
        "l2.line_bytes/l2.sector_bytes ({}/{}) must equal l1.line_bytes/l1.sector_bytes "
        "({}/{})",
        l2.line_bytes(), l2.sector_bytes(), l1.line_bytes(), l1.sector_bytes()));
  }
  require_positive(l2.hit_latency_cycles(), "l2.hit_latency_cycles");
  require_positive(l2.slice_bytes_per_cycle(), "l2.slice_bytes_per_cycle");
  require_positive(l2.mshr_entries(), "l2.mshr_entries");

  const config::DramConfig& dram = c.dram();
  require(dram.has_channels(), "dram.channels");
  require(dram.has_bus_width_bits(), "dram.bus_width_bits");
  require(dram.has_data_rate_mtps(), "dram.data_rate_mtps");
  require(dram.has_latency_ns(), "dram.latency_ns");
  require_positive(dram.channels(), "dram.channels");
  require_positive(dram.bus_width_bits(), "dram.bus_width_bits");
  require_positive(dram.data_rate_mtps(), "dram.data_rate_mtps");
  require_positive(dram.latency_ns(), "dram.latency_ns");
  require_positive(dram.queue_entries(), "dram.queue_entries");
  config::dram_clock_mhz(c);  // throws for a DRAM type without a known clock
}

}  // namespace sassim::memsys
