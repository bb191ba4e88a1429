#include "sim/energy_model.h"

#include <algorithm>
#include <string>

#include <fmt/format.h>

#include "ground/error.h"

namespace sassim::sim {

namespace {

constexpr double kPico = 1e-12;

// The config's figure for each unit class, in isa::UnitClass order.
std::array<double, isa::kNumUnitClasses> warp_inst_pj(const config::InstructionEnergy& e) {
  return {e.int_alu(),    e.int_mad(), e.fp32(),   e.fp64(),   e.fp16(),    e.sfu(),
          e.conversion(), e.tensor(),  e.memory(), e.branch(), e.uniform(), e.misc()};
}

// The config's figure for each operand type, in isa::MmaType order (kNone first).
std::array<double, kNumMmaTypes> tensor_pj(const config::TensorFlopEnergy& e) {
  return {0, e.f16(), e.bf16(), e.tf32(), e.fp8(), e.int8(), e.int4(), e.fp64(), e.binary()};
}

}  // namespace

double core_voltage_v(const config::EnergyConfig& energy, double core_mhz) {
  return std::max(energy.min_voltage_v(),
                  energy.reference_voltage_v() +
                      energy.volts_per_mhz() * (core_mhz - energy.reference_core_mhz()));
}

std::unique_ptr<EnergyModel> EnergyModel::of_config(const config::GpuConfig& config) {
  if (!config.has_energy()) return nullptr;
  return std::make_unique<EnergyModel>(config);
}

EnergyModel::EnergyModel(const config::GpuConfig& config) {
  const config::EnergyConfig& e = config.energy();
  const double core_mhz = config.clocks().core_mhz();
  voltage_v_ = core_voltage_v(e, core_mhz);
  core_hz_ = core_mhz * 1e6;
  num_sms_ = config.num_sms();
  // Dynamic energy per event C V^2 (the switched capacitance is the event's); static
  // power (leakage) taken as linear in V.
  const double v = voltage_v_ / e.reference_voltage_v();
  const double dynamic = kPico * v * v;
  const std::array<double, isa::kNumUnitClasses> inst = warp_inst_pj(e.warp_inst_pj());
  for (std::size_t u = 0; u < inst.size(); ++u) per_warp_inst_[u] = inst[u] * dynamic;
  const std::array<double, kNumMmaTypes> tensor = tensor_pj(e.tensor_pj_per_flop());
  for (std::size_t t = 0; t < tensor.size(); ++t) per_tensor_flop_[t] = tensor[t] * dynamic;
  per_register_access_inst_ = e.register_file_pj_per_warp_inst() * dynamic;
  per_l1_sector_ = e.l1_pj_per_byte() * config.l1().sector_bytes() * dynamic;
  per_shared_byte_ = e.shared_pj_per_byte() * dynamic;
  per_shared_pass_ =
      per_shared_byte_ * config.l1().shared_banks() * config.l1().shared_bank_bytes();
  per_l2_sector_ = e.l2_pj_per_byte() * config.l2().sector_bytes() * dynamic;
  per_noc_sector_ = e.interconnect_pj_per_byte() * config.l2().sector_bytes() * dynamic;
  const auto entry = e.dram_pj_per_bit().find(config.dram().type());
  if (entry == e.dram_pj_per_bit().end()) {
    throw Error(fmt::format("energy.dram_pj_per_bit has no entry for dram.type \"{}\"",
                            config.dram().type()));
  }
  per_dram_byte_ = entry->second * 8 * kPico;  // DRAM has its own supply
  sm_active_w_ = e.sm_active_static_w() * v;
  sm_idle_w_ = e.sm_idle_w() * v;
  chip_static_w_ = e.chip_static_w();  // mostly off the core rail: DRAM, PHYs, board
}

KernelEnergy EnergyModel::compute(const EnergyCounters& c, std::uint64_t cycles) const {
  KernelEnergy k;
  k.modelled = true;
  k.core_voltage_v = voltage_v_;
  auto set = [&k](EnergyPart p, double j) { k.joules[static_cast<std::size_t>(p)] = j; };
  double instructions = 0, register_insts = 0;
  for (std::size_t u = 0; u < isa::kNumUnitClasses; ++u) {
    instructions += c.warp_insts[u] * per_warp_inst_[u];
    const auto unit = static_cast<isa::UnitClass>(u);
    // Branches and the uniform datapath (its own small register file) read no vector
    // registers worth counting.
    if (unit != isa::UnitClass::kBranch && unit != isa::UnitClass::kUniform) {
      register_insts += c.warp_insts[u];
    }
  }
  double tensor = 0;
  for (std::size_t t = 0; t < kNumMmaTypes; ++t) tensor += c.tensor_flops[t] * per_tensor_flop_[t];
  set(EnergyPart::kInstructions, instructions);
  set(EnergyPart::kTensor, tensor);
  set(EnergyPart::kRegisterFile, register_insts * per_register_access_inst_);
  set(EnergyPart::kL1, c.l1_sector_accesses * per_l1_sector_);
  set(EnergyPart::kShared,
      c.shared_bank_passes * per_shared_pass_ + c.wgmma_shared_bytes * per_shared_byte_);
  set(EnergyPart::kL2, c.l2_sector_accesses * per_l2_sector_);
  set(EnergyPart::kInterconnect, c.l2_sector_accesses * per_noc_sector_);
  set(EnergyPart::kDram, c.dram_bytes * per_dram_byte_);
  const double seconds = static_cast<double>(cycles) / core_hz_;
  const double sm_cycles = static_cast<double>(cycles) * num_sms_;
  const double busy = std::clamp(c.sm_busy_cycles, 0.0, sm_cycles);
  set(EnergyPart::kSmStatic, sm_active_w_ * busy / core_hz_);
  set(EnergyPart::kSmIdle, sm_idle_w_ * (sm_cycles - busy) / core_hz_);
  set(EnergyPart::kChipStatic, chip_static_w_ * seconds);
  for (double j : k.joules) k.total_j += j;
  k.avg_power_w = seconds > 0 ? k.total_j / seconds : 0;
  k.j_per_flop = c.flops > 0 ? k.total_j / c.flops : 0;
  k.j_per_dram_byte = c.dram_bytes > 0 ? k.total_j / c.dram_bytes : 0;
  return k;
}

EnergyCounterIndex::EnergyCounterIndex(const StatsSchema& schema)
    : flops_(schema.matching("gpu.sm[", ".flops.fp32")),
      l1_sectors_(schema.matching("gpu.sm[", ".l1.sector_accesses")),
      shared_passes_(schema.matching("gpu.sm[", ".l1.shared_bank_passes")),
      wgmma_shared_bytes_(schema.matching("gpu.sm[", ".wgmma.shared_bytes")),
      l2_sectors_(schema.matching("gpu.l2.slice[", ".sector_accesses")),
      dram_read_bytes_(schema.matching("gpu.dram.channel[", ".read_bytes")),
      dram_write_bytes_(schema.matching("gpu.dram.channel[", ".write_bytes")),
      busy_cycles_(schema.matching("gpu.sm[", ".busy_cycles")) {
  for (const char* kind : {".flops.fp16", ".flops.fp64", ".flops.tensor"}) {
    const std::vector<std::uint32_t> more = schema.matching("gpu.sm[", kind);
    flops_.insert(flops_.end(), more.begin(), more.end());
  }
  for (std::size_t u = 0; u < isa::kNumUnitClasses; ++u) {
    insts_[u] = schema.matching(
        "gpu.sm[", fmt::format(".insts.{}", isa::unit_class_name(static_cast<isa::UnitClass>(u))));
  }
  for (std::size_t t = 1; t < kNumMmaTypes; ++t) {
    tensor_flops_[t] = schema.matching(
        "gpu.sm[",
        fmt::format(".tensor_flops.{}", isa::mma_type_name(static_cast<isa::MmaType>(t))));
  }
}

EnergyCounters EnergyCounterIndex::gather(const StatsSnapshot& change) const {
  EnergyCounters c;
  for (std::size_t u = 0; u < isa::kNumUnitClasses; ++u) c.warp_insts[u] = change.sum(insts_[u]);
  for (std::size_t t = 1; t < kNumMmaTypes; ++t) c.tensor_flops[t] = change.sum(tensor_flops_[t]);
  c.flops = change.sum(flops_);
  c.l1_sector_accesses = change.sum(l1_sectors_);
  c.shared_bank_passes = change.sum(shared_passes_);
  c.wgmma_shared_bytes = change.sum(wgmma_shared_bytes_);
  c.l2_sector_accesses = change.sum(l2_sectors_);
  c.dram_bytes = change.sum(dram_read_bytes_) + change.sum(dram_write_bytes_);
  c.sm_busy_cycles = change.sum(busy_cycles_);
  return c;
}

}  // namespace sassim::sim
