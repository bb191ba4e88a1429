// Name-valued fields are checked against their registries' lists when a config is
// loaded: the message names the field, the value, the accepted names and a close one.
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "configs/choices.h"
#include "configs/config_loader.h"
#include "tests/configs/error_matchers.h"

namespace sassim::config {
namespace {

using testing::error_of;
using ::testing::HasSubstr;
using ::testing::Not;

std::string load_error(const std::string& preset, const std::string& assignment) {
  return error_of([&] { load_config(preset, {assignment}); });
}

TEST(ConfigNames, UnknownSchedulerPolicyIsRefusedAtLoadWithASuggestion) {
  EXPECT_EQ(load_error("a100", "sm.scheduler.policy=lrx"),
            "invalid config " + (preset_dir() / "a100.txtpb").string() +
                " (with --set overrides):\n"
                "sm.scheduler.policy = \"lrx\" is not one of: gto, gty, lrr, two_level (did you "
                "mean \"lrr\"?)");
}

TEST(ConfigNames, FarValueGetsNoSuggestion) {
  const std::string message = load_error("a100", "sm.scheduler.policy=foo");
  EXPECT_THAT(message, HasSubstr("sm.scheduler.policy = \"foo\" is not one of: gto, gty, lrr, "
                                 "two_level"));
  EXPECT_THAT(message, Not(HasSubstr("did you mean")));
}

TEST(ConfigNames, EveryNameFieldNamesItsPathValueAndList) {
  EXPECT_THAT(load_error("a100", "l2.address_hash=xr"),
              HasSubstr("l2.address_hash = \"xr\" is not one of: linear, xor, ipoly (did you "
                        "mean \"xor\"?)"));
  EXPECT_THAT(load_error("a100", "l2.set_index=xr"),
              HasSubstr("l2.set_index = \"xr\" is not one of: linear, xor (did you mean "
                        "\"xor\"?)"));
  EXPECT_THAT(load_error("a100", "dram.type=hbm2e"),
              HasSubstr("dram.type = \"hbm2e\" is not one of: HBM2, HBM2e, HBM3, HBM3e, GDDR5, "
                        "GDDR5X, GDDR6, GDDR6X (did you mean \"HBM2e\"?)"));
  EXPECT_THAT(load_error("a100", "dram.address_scheme=row_bank_colum"),
              HasSubstr("dram.address_scheme = \"row_bank_colum\" is not one of: "
                        "row_column_bank, row_bank_column (did you mean \"row_bank_column\"?)"));
  EXPECT_THAT(load_error("a100", "arch=sm80"),
              HasSubstr("arch = \"sm80\" is not one of: sm_60, sm_61, sm_70, sm_75, sm_80, "
                        "sm_86, sm_89, sm_90 (did you mean \"sm_80\"?)"));
}

TEST(ConfigNames, BadNamesAreListedWithTheOtherProblems) {
  const std::string message = error_of([] {
    load_config("a100",
                {"sm.scheduler.policy=lrx", "l2.address_hash=ipolly", "l1.hit_latency_cycles=0"});
  });
  EXPECT_THAT(message, HasSubstr("l1.hit_latency_cycles = 0 is out of range"));
  EXPECT_THAT(message, HasSubstr("sm.scheduler.policy = \"lrx\""));
  EXPECT_THAT(message, HasSubstr("l2.address_hash = \"ipolly\""));
}

TEST(ConfigNames, EveryListedNameLoads) {
  for (std::string_view name : kSchedulerPolicies) {
    EXPECT_NO_THROW(load_config("a100", {"sm.scheduler.policy=" + std::string(name)})) << name;
  }
  for (std::string_view name : kAddressHashes) {
    EXPECT_NO_THROW(load_config("a100", {"l2.address_hash=" + std::string(name)})) << name;
  }
  for (std::string_view name : kDramAddressSchemes) {
    EXPECT_NO_THROW(load_config("a100", {"dram.address_scheme=" + std::string(name)})) << name;
  }
  // The energy section needs a figure for the memory type (the presets have none for
  // GDDR5 and GDDR5X).
  for (const DramType& type : kDramTypes) {
    EXPECT_NO_THROW(
        load_config("a100", {"dram.type=" + std::string(type.name),
                             "energy.dram_pj_per_bit." + std::string(type.name) + "=7"}))
        << type.name;
  }
}

TEST(ConfigNames, ChoiceProblemIsEmptyForAnAcceptedName) {
  EXPECT_FALSE(choice_problem("sm.scheduler.policy", "gto", kSchedulerPolicies));
  EXPECT_EQ(choice_index(kAddressHashes, "ipoly"), 2U);
  EXPECT_FALSE(choice_index(kAddressHashes, "IPOLY"));
  EXPECT_EQ(find_dram_type("GDDR6X")->transfers_per_clock, 4);
  EXPECT_EQ(find_dram_type("DDR4"), nullptr);
}

TEST(ConfigNames, TensorFormsAreCheckedAgainstTheArchitectureAtLoad) {
  GpuConfig config = load_config("a100");
  const int index = config.sm().tensor_ops_size();
  TensorTiming* entry = config.mutable_sm()->add_tensor_ops();
  entry->set_opcode("HMMA.999.F32");
  entry->set_latency_cycles(10);
  entry->set_initiation_interval_cycles(4);
  EXPECT_THAT(error_of([&] { validate(config); }),
              HasSubstr("sm.tensor_ops[" + std::to_string(index) +
                        "].opcode: 'HMMA.999.F32' is not a matrix instruction of sm_80 with a "
                        "known shape"));
  entry->set_opcode("HMMA.16816.F32.BF16");
  entry->set_latency_cycles_per_n(1);
  EXPECT_THAT(error_of([&] { validate(config); }),
              HasSubstr("latency_cycles_per_n / initiation_interval_cycles_per_n need a "
                        "warpgroup form (HGMMA, IGMMA, QGMMA, BGMMA); 'HMMA.16816.F32.BF16' is "
                        "not one"));
  entry->clear_latency_cycles_per_n();
  EXPECT_NO_THROW(validate(config));
}

// A unified array smaller than the shared memory leaves no data part: the messages say
// so instead of printing a wrapped-around byte count.
TEST(ConfigNames, UnifiedArraySmallerThanSharedMemoryReportsNoUnderflow) {
  const std::string message = load_error("v100", "l1.unified_size_bytes=32768");
  EXPECT_THAT(message, HasSubstr("l1.shared_memory_bytes = 98304 exceeds l1.unified_size_bytes = "
                                 "32768"));
  EXPECT_THAT(message, Not(HasSubstr("4294")));
  EXPECT_THAT(message, Not(HasSubstr("leaves")));
}

TEST(ConfigNames, CarveOutThatLeavesPartialWaysReportsTheBytesLeft) {
  // 128 KiB - 1000 bytes; the base data part is 4 sets of 64 ways of 128-byte lines.
  EXPECT_THAT(load_error("v100", "l1.shared_carveout_options_bytes=0,1000"),
              HasSubstr("l1.shared_carveout_options_bytes: 1000 leaves 130072 bytes of L1 data, "
                        "not a whole number of ways of the 4 sets of 128-byte lines the base "
                        "data part has"));
}

}  // namespace
}  // namespace sassim::config
