// The energy model's arithmetic (sim/energy_model.h) on synthetic counters: every part
// against its product computed here from round figures, the V-f scaling of dynamic and
// static parts, idle SMs, per-FLOP and per-byte figures, and a sampled launch's rescale.
#include "sim/energy_model.h"

#include <gtest/gtest.h>

#include "configs/config_loader.h"

namespace sassim::sim {
namespace {

using isa::MmaType;
using isa::UnitClass;

// h100 with round energy figures: 132 SMs at 1,830 MHz, 32-byte L1 and L2 sectors,
// 32 shared banks of 4 bytes, HBM3.
config::GpuConfig round_config() {
  config::GpuConfig c = config::load_config("h100");
  config::EnergyConfig& e = *c.mutable_energy();
  e.set_reference_core_mhz(1830);
  e.set_reference_voltage_v(1.0);
  e.set_volts_per_mhz(1.0 / 1830);
  e.set_min_voltage_v(0.7);
  config::InstructionEnergy& w = *e.mutable_warp_inst_pj();
  w.Clear();
  w.set_int_alu(10);
  w.set_fp32(100);
  w.set_branch(5);
  for (auto set : {&config::InstructionEnergy::set_int_mad, &config::InstructionEnergy::set_fp64,
                   &config::InstructionEnergy::set_fp16, &config::InstructionEnergy::set_sfu,
                   &config::InstructionEnergy::set_conversion,
                   &config::InstructionEnergy::set_tensor, &config::InstructionEnergy::set_memory,
                   &config::InstructionEnergy::set_uniform, &config::InstructionEnergy::set_misc}) {
    (w.*set)(0);
  }
  config::TensorFlopEnergy& t = *e.mutable_tensor_pj_per_flop();
  t.set_f16(0.25);
  t.set_bf16(0.5);
  e.set_register_file_pj_per_warp_inst(20);
  e.set_l1_pj_per_byte(1);
  e.set_shared_pj_per_byte(2);
  e.set_l2_pj_per_byte(3);
  e.set_interconnect_pj_per_byte(4);
  (*e.mutable_dram_pj_per_bit())["HBM3"] = 5;
  e.set_sm_active_static_w(1);
  e.set_sm_idle_w(0.5);
  e.set_chip_static_w(40);
  return c;
}

EnergyCounters round_counters() {
  EnergyCounters c;
  c.warp_insts[static_cast<std::size_t>(UnitClass::kFp32)] = 1000;
  c.warp_insts[static_cast<std::size_t>(UnitClass::kIntAlu)] = 2000;
  c.warp_insts[static_cast<std::size_t>(UnitClass::kBranch)] = 100;
  c.tensor_flops[static_cast<std::size_t>(MmaType::kBf16)] = 1e6;
  c.flops = 1e6 + 64000;
  c.l1_sector_accesses = 10;
  c.shared_bank_passes = 3;
  c.wgmma_shared_bytes = 1000;
  c.l2_sector_accesses = 7;
  c.dram_bytes = 64;
  c.sm_busy_cycles = 132.0 * 1830 / 2;  // half the SM cycles of a 1,830-cycle kernel
  return c;
}

constexpr double kPj = 1e-12;

TEST(EnergyModel, EveryPartIsItsEventsTimesTheirEnergy) {
  const KernelEnergy e = EnergyModel(round_config()).compute(round_counters(), 1830);
  ASSERT_TRUE(e.modelled);
  EXPECT_DOUBLE_EQ(e.core_voltage_v, 1.0);
  EXPECT_DOUBLE_EQ(e.part(EnergyPart::kInstructions), (1000 * 100 + 2000 * 10 + 100 * 5) * kPj);
  EXPECT_DOUBLE_EQ(e.part(EnergyPart::kTensor), 1e6 * 0.5 * kPj);
  // Branches read no vector registers.
  EXPECT_DOUBLE_EQ(e.part(EnergyPart::kRegisterFile), 3000 * 20 * kPj);
  EXPECT_DOUBLE_EQ(e.part(EnergyPart::kL1), 10 * 32 * 1 * kPj);
  EXPECT_DOUBLE_EQ(e.part(EnergyPart::kShared), (3 * 32 * 4 + 1000) * 2 * kPj);
  EXPECT_DOUBLE_EQ(e.part(EnergyPart::kL2), 7 * 32 * 3 * kPj);
  EXPECT_DOUBLE_EQ(e.part(EnergyPart::kInterconnect), 7 * 32 * 4 * kPj);
  EXPECT_DOUBLE_EQ(e.part(EnergyPart::kDram), 64 * 8 * 5 * kPj);
  // 1 us: half the SM time active at 1 W, half idle at 0.5 W, the chip at 40 W.
  EXPECT_DOUBLE_EQ(e.part(EnergyPart::kSmStatic), 66 * 1e-6);
  EXPECT_DOUBLE_EQ(e.part(EnergyPart::kSmIdle), 33 * 1e-6);
  EXPECT_DOUBLE_EQ(e.part(EnergyPart::kChipStatic), 40 * 1e-6);
  const double dynamic = (120500 + 5e5 + 60000 + 320 + 2768 + 672 + 896 + 2560) * kPj;
  EXPECT_DOUBLE_EQ(e.dynamic_j(), dynamic);
  EXPECT_DOUBLE_EQ(e.total_j, dynamic + 139e-6);
  EXPECT_DOUBLE_EQ(e.avg_power_w, e.total_j / 1e-6);
  EXPECT_DOUBLE_EQ(e.j_per_flop, e.total_j / 1.064e6);
  EXPECT_DOUBLE_EQ(e.j_per_dram_byte, e.total_j / 64);
}

TEST(EnergyModel, AFasterClockRaisesTheVoltage) {
  config::GpuConfig c = round_config();
  c.mutable_clocks()->set_core_mhz(1830 * 1.2);
  const KernelEnergy base = EnergyModel(round_config()).compute(round_counters(), 1830);
  const KernelEnergy fast = EnergyModel(c).compute(round_counters(), 1830);
  EXPECT_DOUBLE_EQ(fast.core_voltage_v, 1.2);
  // Same events: dynamic energy x V^2 except DRAM's (its own supply).
  for (EnergyPart p : {EnergyPart::kInstructions, EnergyPart::kTensor, EnergyPart::kRegisterFile,
                       EnergyPart::kShared, EnergyPart::kL2, EnergyPart::kInterconnect}) {
    EXPECT_DOUBLE_EQ(fast.part(p), base.part(p) * 1.44) << energy_part_name(p);
  }
  EXPECT_DOUBLE_EQ(fast.part(EnergyPart::kDram), base.part(EnergyPart::kDram));
  // 1,830 cycles now last 1/1.2 us; SM static power x V; the chip's does not scale.
  EXPECT_DOUBLE_EQ(fast.part(EnergyPart::kSmStatic), 66e-6 / 1.2 * 1.2);
  EXPECT_DOUBLE_EQ(fast.part(EnergyPart::kSmIdle), 33e-6 / 1.2 * 1.2);
  EXPECT_DOUBLE_EQ(fast.part(EnergyPart::kChipStatic), 40e-6 / 1.2);
}

TEST(EnergyModel, VoltageStopsAtItsFloor) {
  config::GpuConfig c = round_config();
  c.mutable_clocks()->set_core_mhz(915);  // V by the slope would be 0.5
  EXPECT_DOUBLE_EQ(EnergyModel(c).core_voltage(), 0.7);
  EXPECT_DOUBLE_EQ(core_voltage_v(c.energy(), 2745), 1.5);
}

TEST(EnergyModel, AnIdleGpuDrawsIdlePower) {
  EnergyCounters none;
  const KernelEnergy e = EnergyModel(round_config()).compute(none, 1830);
  EXPECT_DOUBLE_EQ(e.dynamic_j(), 0);
  EXPECT_DOUBLE_EQ(e.avg_power_w, 132 * 0.5 + 40);
  EXPECT_EQ(e.j_per_flop, 0);
  EXPECT_EQ(e.j_per_dram_byte, 0);
}

TEST(EnergyModel, BusyCyclesBeyondTheKernelCountAsAllSmsBusy) {
  EnergyCounters c;
  c.sm_busy_cycles = 1e12;
  const KernelEnergy e = EnergyModel(round_config()).compute(c, 1830);
  EXPECT_DOUBLE_EQ(e.part(EnergyPart::kSmStatic), 132e-6);
  EXPECT_DOUBLE_EQ(e.part(EnergyPart::kSmIdle), 0);
}

TEST(EnergyModel, NoSectionNoModel) {
  config::GpuConfig c = round_config();
  c.clear_energy();
  EXPECT_EQ(EnergyModel::of_config(c), nullptr);
  EXPECT_NE(EnergyModel::of_config(round_config()), nullptr);
}

TEST(KernelEnergy, LongerDurationScalesOnlyTheStaticParts) {
  const KernelEnergy e = EnergyModel(round_config()).compute(round_counters(), 1830);
  const KernelEnergy twice = e.with_duration(2);
  EXPECT_DOUBLE_EQ(twice.dynamic_j(), e.dynamic_j());
  EXPECT_DOUBLE_EQ(twice.part(EnergyPart::kChipStatic), 80e-6);
  EXPECT_DOUBLE_EQ(twice.total_j, e.dynamic_j() + 278e-6);
  EXPECT_DOUBLE_EQ(twice.avg_power_w, twice.total_j / 2e-6);
  EXPECT_DOUBLE_EQ(twice.j_per_flop, twice.total_j / 1.064e6);
  EXPECT_DOUBLE_EQ(twice.j_per_dram_byte, twice.total_j / 64);
  EXPECT_FALSE(KernelEnergy{}.with_duration(2).modelled);
}

TEST(KernelEnergy, PartNamesAreTheSplitsColumns) {
  EXPECT_EQ(energy_part_name(EnergyPart::kInstructions), "instructions");
  EXPECT_EQ(energy_part_name(EnergyPart::kRegisterFile), "register_file");
  EXPECT_EQ(energy_part_name(EnergyPart::kChipStatic), "chip_static");
}

}  // namespace
}  // namespace sassim::sim
