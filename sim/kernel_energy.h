#pragma once
// What the energy model (sim/energy_model.h) says of one kernel: energy by component,
// total, average power and energy per unit of work. Plain numbers, computed after the
// kernel ran from its counters; timing never reads them.
#include <array>
#include <cstddef>
#include <string_view>

namespace sassim::sim {

// Components of a kernel's energy, in the order of the split (docs/ENERGY.md).
enum class EnergyPart : std::uint8_t {
  kInstructions,  // issue and datapath of warp instructions by unit class (tensor issue too)
  kTensor,        // matrix instructions' arithmetic, per FLOP of their type
  kRegisterFile,  // register-file reads and writes
  kL1,            // L1 data cache sectors
  kShared,        // shared memory (bank passes, wgmma operand reads)
  kL2,            // L2 sectors
  kInterconnect,  // crossbar traffic between SMs and L2
  kDram,          // DRAM reads and writes
  kSmStatic,      // static power of SMs holding work
  kSmIdle,        // clock-gated SMs holding no work
  kChipStatic,    // the rest of the board
};
inline constexpr std::size_t kNumEnergyParts = 11;
// "instructions", "tensor", "register_file", ..., "chip_static".
std::string_view energy_part_name(EnergyPart part);

struct KernelEnergy {
  bool modelled = false;                         // false when the config has no `energy` section
  std::array<double, kNumEnergyParts> joules{};  // by EnergyPart
  double total_j = 0;
  double avg_power_w = 0;      // total_j over the kernel's simulated seconds
  double j_per_flop = 0;       // total_j over its FLOPs (0 without FLOPs)
  double j_per_dram_byte = 0;  // total_j over its DRAM bytes (0 without DRAM traffic)
  double core_voltage_v = 0;   // the voltage its clock implies

  double part(EnergyPart p) const { return joules[static_cast<std::size_t>(p)]; }
  // The dynamic parts (every part but the three static ones).
  double dynamic_j() const;
  // The same events over `time_ratio` times the duration (a sampled launch estimated
  // from a representative one, sim/kernel_sampler.h): static parts scale, dynamic
  // ones stay, and the derived figures follow.
  KernelEnergy with_duration(double time_ratio) const;
};

}  // namespace sassim::sim
