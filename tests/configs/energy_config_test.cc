// The `energy` section at load: optional, complete when present, and each bad value a
// message naming the field (configs/energy_checks.cc and the (spec) ranges).
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "configs/config_loader.h"
#include "configs/text_parser.h"
#include "tests/configs/error_matchers.h"

namespace sassim::config {
namespace {

using testing::error_of;
using ::testing::HasSubstr;

class EnergyConfigCheck : public ::testing::Test {
 protected:
  std::string problem() {
    return error_of([&] { validate(config_); });
  }
  GpuConfig config_ = load_config("h100");
};

TEST_F(EnergyConfigCheck, PresetsCarryAValidSection) {
  for (const char* name :
       {"v100", "qv100", "a100", "a100-pcie", "h100", "h200", "rtx2060", "rtx3070", "rtx4090"}) {
    const GpuConfig c = load_config(name);
    EXPECT_TRUE(c.has_energy()) << name;
    EXPECT_NO_THROW(validate(c)) << name;
  }
}

TEST_F(EnergyConfigCheck, TheSectionIsOptional) {
  config_.clear_energy();
  EXPECT_NO_THROW(validate(config_));
  EXPECT_FALSE(load_config("gtx1080").has_energy());
}

TEST_F(EnergyConfigCheck, NegativeEnergyIsOutOfRange) {
  config_.mutable_energy()->set_l2_pj_per_byte(-1);
  config_.mutable_energy()->mutable_warp_inst_pj()->set_fp32(-2);
  const std::string message = problem();
  EXPECT_THAT(message, HasSubstr("energy.l2_pj_per_byte = -1 is out of range [0, 1000] pJ/byte"));
  EXPECT_THAT(message, HasSubstr("energy.warp_inst_pj.fp32 = -2 is out of range [0, 1000000] pJ"));
}

TEST_F(EnergyConfigCheck, NegativeDramEnergyIsOutOfRange) {
  (*config_.mutable_energy()->mutable_dram_pj_per_bit())["HBM3"] = -3.9;
  EXPECT_THAT(problem(), HasSubstr("energy.dram_pj_per_bit[\"HBM3\"] = -3.9 is out of range "
                                   "[0, 1000] pJ/bit"));
}

TEST_F(EnergyConfigCheck, MissingMemoryType) {
  config_.mutable_energy()->mutable_dram_pj_per_bit()->erase("HBM3");
  EXPECT_THAT(problem(), HasSubstr("energy.dram_pj_per_bit has no entry for the memory type "
                                   "dram.type = \"HBM3\""));
  EXPECT_THAT(problem(), HasSubstr("--set energy.dram_pj_per_bit.HBM3=PJ_PER_BIT"));
}

TEST_F(EnergyConfigCheck, UnknownMemoryType) {
  (*config_.mutable_energy()->mutable_dram_pj_per_bit())["HBM9"] = 1;
  EXPECT_THAT(problem(), HasSubstr("energy.dram_pj_per_bit[\"HBM9\"]: unknown memory type"));
}

TEST_F(EnergyConfigCheck, AMissingFieldOfThePresentSectionIsNamed) {
  config_.mutable_energy()->clear_chip_static_w();
  config_.mutable_energy()->mutable_tensor_pj_per_flop()->clear_bf16();
  const std::string message = problem();
  EXPECT_THAT(message, HasSubstr("missing field energy.chip_static_w"));
  EXPECT_THAT(message, HasSubstr("missing field energy.tensor_pj_per_flop.bf16"));
}

TEST_F(EnergyConfigCheck, VoltageFloorAboveTheReference) {
  config_.mutable_energy()->set_min_voltage_v(1.2);
  EXPECT_THAT(problem(), HasSubstr("energy.min_voltage_v = 1.2 exceeds "
                                   "energy.reference_voltage_v = 1"));
}

TEST_F(EnergyConfigCheck, IdleSmAboveAnActiveOne) {
  config_.mutable_energy()->set_sm_idle_w(2);
  EXPECT_THAT(problem(), HasSubstr("energy.sm_idle_w = 2 exceeds energy.sm_active_static_w"));
}

TEST_F(EnergyConfigCheck, OverridesReachTheSection) {
  apply_override(config_, "energy.chip_static_w=-5");
  EXPECT_THAT(problem(), HasSubstr("energy.chip_static_w = -5 is out of range [0, 10000] W"));
}

}  // namespace
}  // namespace sassim::config
