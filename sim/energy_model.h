#pragma once
// Energy and power of a kernel from the counters the timing model already keeps
// (docs/ENERGY.md): dynamic energy per event (warp instructions by unit class, tensor
// FLOPs by type, register-file traffic, L1 / shared / L2 / crossbar bytes, DRAM bits)
// and static power (SMs holding work, clock-gated idle SMs, the rest of the board).
// Voltage follows the config's core clock: per-event energy scales with V^2, static
// power with V. Computed after the kernel ran; it never changes timing.
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "configs/sassim_config.pb.h"
#include "isa/opcode.h"
#include "sim/kernel_energy.h"
#include "sim/stats.h"

namespace sassim::sim {

inline constexpr std::size_t kNumMmaTypes = static_cast<std::size_t>(isa::MmaType::kBinary) + 1;

// One kernel's events, summed over the GPU.
struct EnergyCounters {
  std::array<double, isa::kNumUnitClasses> warp_insts{};  // by isa::UnitClass
  std::array<double, kNumMmaTypes> tensor_flops{};        // by isa::MmaType
  double flops = 0;  // every FLOP: FP32, FP16 and FP64 pipes and matrix instructions
  double l1_sector_accesses = 0;
  double shared_bank_passes = 0;
  double wgmma_shared_bytes = 0;
  double l2_sector_accesses = 0;
  double dram_bytes = 0;
  double sm_busy_cycles = 0;  // over all SMs: core cycles holding at least one CTA
};

// The core voltage at `core_mhz` by the config's V-f relation:
// max(min_voltage_v, reference_voltage_v + volts_per_mhz x (core_mhz - reference_core_mhz)).
double core_voltage_v(const config::EnergyConfig& energy, double core_mhz);

class EnergyModel {
 public:
  // The model of a validated config; null when it has no `energy` section.
  static std::unique_ptr<EnergyModel> of_config(const config::GpuConfig& config);
  explicit EnergyModel(const config::GpuConfig& config);

  // The energy of a kernel that ran `cycles` core cycles and counted `c`.
  KernelEnergy compute(const EnergyCounters& c, std::uint64_t cycles) const;
  double core_voltage() const { return voltage_v_; }

 private:
  double voltage_v_ = 0;
  double core_hz_ = 0;
  double num_sms_ = 0;
  // Joules per event at the config's clock (voltage scaling applied).
  std::array<double, isa::kNumUnitClasses> per_warp_inst_{};
  std::array<double, kNumMmaTypes> per_tensor_flop_{};
  double per_register_access_inst_ = 0;
  double per_l1_sector_ = 0, per_shared_pass_ = 0, per_shared_byte_ = 0;
  double per_l2_sector_ = 0, per_noc_sector_ = 0;
  double per_dram_byte_ = 0;
  // Watts at the config's clock.
  double sm_active_w_ = 0, sm_idle_w_ = 0, chip_static_w_ = 0;
};

// Where a schema keeps the counters the model reads, found once per schema.
class EnergyCounterIndex {
 public:
  explicit EnergyCounterIndex(const StatsSchema& schema);
  EnergyCounters gather(const StatsSnapshot& change) const;

 private:
  std::array<std::vector<std::uint32_t>, isa::kNumUnitClasses> insts_;
  std::array<std::vector<std::uint32_t>, kNumMmaTypes> tensor_flops_;
  std::vector<std::uint32_t> flops_, l1_sectors_, shared_passes_, wgmma_shared_bytes_;
  std::vector<std::uint32_t> l2_sectors_, dram_read_bytes_, dram_write_bytes_, busy_cycles_;
};

}  // namespace sassim::sim
