// Loading files and presets: base chains, merge rules, file errors with positions.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "configs/config_loader.h"
#include "configs/text_parser.h"
#include "tests/configs/error_matchers.h"

namespace sassim::config {
namespace {

using testing::error_of;
using testing::fixture;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(Loader, FileOverridesItsBasePreset) {
  const GpuConfig a100 = load_config("a100");
  const GpuConfig derived = load_config(fixture("derived_from_a100.txtpb"));
  EXPECT_EQ(derived.name(), "A100 variant");
  EXPECT_EQ(derived.num_sms(), 100u);
  EXPECT_EQ(derived.l1().hit_latency_cycles(), 30u);
  // Siblings of an overridden field keep the base's values.
  EXPECT_EQ(derived.l1().unified_size_bytes(), a100.l1().unified_size_bytes());
  EXPECT_EQ(derived.l1().shared_latency_cycles(), a100.l1().shared_latency_cycles());
  EXPECT_EQ(derived.sm().opcode_latency_cycles().at("IMAD"), 5u);
  EXPECT_FALSE(derived.has_base());
}

TEST(Loader, BasePathIsRelativeToTheFile) {
  const GpuConfig config = load_config(fixture("sub/relative_base.txtpb"));
  EXPECT_EQ(config.num_sms(), 90u);          // this file
  EXPECT_EQ(config.name(), "A100 variant");  // its base
  EXPECT_EQ(config.arch(), "sm_80");         // the base's base (preset a100)
}

TEST(Loader, MapEntriesMergeByKey) {
  const std::filesystem::path dir =
      std::filesystem::path(::testing::TempDir()) / "sassim_map_merge";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "base.txtpb") << "base: \"a100\"\n"
                                    << "sm { opcode_latency_cycles { key: \"IMAD\" value: 5 }\n"
                                    << "     opcode_latency_cycles { key: \"DFMA\" value: 9 } }\n";
  std::ofstream(dir / "top.txtpb") << "base: \"base.txtpb\"\n"
                                   << "sm { opcode_latency_cycles { key: \"IMAD\" value: 7 } }\n";
  const GpuConfig config = load_config((dir / "top.txtpb").string());
  EXPECT_EQ(config.sm().opcode_latency_cycles().at("IMAD"), 7u);
  EXPECT_EQ(config.sm().opcode_latency_cycles().at("DFMA"), 9u);
  EXPECT_EQ(config.sm().opcode_latency_cycles().size(), 2u);
}

TEST(Loader, MisspelledFieldNamesFileLineAndColumn) {
  const std::string message = error_of([] { load_config(fixture("typo_field.txtpb")); });
  EXPECT_THAT(message, HasSubstr("typo_field.txtpb:4:3: "));
  EXPECT_THAT(message, HasSubstr("hit_latncy_cycles"));
}

TEST(Loader, SyntaxErrorNamesFileAndLine) {
  const std::string message = error_of([] { load_config(fixture("syntax_error.txtpb")); });
  EXPECT_THAT(message, HasSubstr("syntax_error.txtpb:4:"));
}

TEST(Loader, ParserCollectsEveryProblem) {
  const std::string message =
      error_of([] { parse_config_text("num_sms: 1\nnum_smz: 2\n", "inline"); });
  EXPECT_THAT(message, HasSubstr("inline:2:1: "));
  EXPECT_THAT(message, HasSubstr("num_smz"));
}

TEST(Loader, BaseCycleIsReported) {
  const std::string message = error_of([] { load_config(fixture("cycle_a.txtpb")); });
  EXPECT_THAT(message, HasSubstr("base cycle"));
  EXPECT_THAT(message, HasSubstr("cycle_a.txtpb -> "));
  EXPECT_THAT(message, HasSubstr("cycle_b.txtpb -> "));
}

TEST(Loader, SelfBaseIsACycle) {
  EXPECT_THAT(error_of([] { load_config(fixture("self_cycle.txtpb")); }), HasSubstr("base cycle"));
}

TEST(Loader, MissingFileIsReported) {
  const std::string message = error_of([] { load_config(fixture("no_such_file.txtpb")); });
  EXPECT_THAT(message, HasSubstr("no_such_file.txtpb"));
  EXPECT_THAT(message, HasSubstr("does not exist"));
}

TEST(Loader, MissingBaseFileNamesTheReferringFile) {
  const std::string message = error_of([] { load_config(fixture("missing_base.txtpb")); });
  EXPECT_THAT(message, HasSubstr("missing_base.txtpb"));
  EXPECT_THAT(message, HasSubstr("does_not_exist.txtpb"));
}

TEST(Loader, UnknownPresetListsTheKnownOnes) {
  const std::string message = error_of([] { load_config("a1000"); });
  EXPECT_THAT(message, HasSubstr("unknown preset 'a1000'"));
  EXPECT_THAT(message,
              HasSubstr("a100, a100-pcie, gtx1080, h100, h200, qv100, rtx2060, rtx3070, rtx4090, "
                        "v100"));
}

TEST(Loader, UnknownPresetAsBaseNamesTheFile) {
  const std::string message = error_of([] { load_config(fixture("unknown_preset_base.txtpb")); });
  EXPECT_THAT(message, HasSubstr("unknown_preset_base.txtpb"));
  EXPECT_THAT(message, HasSubstr("unknown preset 'a1000'"));
}

TEST(Loader, MissingRequiredFieldInAFile) {
  const std::string message = error_of([] { load_config(fixture("missing_l2_latency.txtpb")); });
  EXPECT_THAT(message, HasSubstr("missing_l2_latency.txtpb"));
  EXPECT_THAT(message, HasSubstr("missing field l2.hit_latency_cycles"));
}

TEST(Loader, OverridesApplyInOrderBeforeValidation) {
  const GpuConfig config =
      load_config("a100", {"num_sms=10", "num_sms=12", "sm.scheduler.policy=lrr"});
  EXPECT_EQ(config.num_sms(), 12u);
  EXPECT_EQ(config.sm().scheduler().policy(), "lrr");
  const std::string message = error_of([] { load_config("a100", {"num_sms=0"}); });
  EXPECT_THAT(message, HasSubstr("num_sms = 0 is out of range [1, 1024] SMs"));
  EXPECT_THAT(message, HasSubstr("--set"));
}

TEST(Loader, SassimHomeChoosesThePresetFolder) {
  const std::filesystem::path home = std::filesystem::path(::testing::TempDir()) / "sassim_home";
  std::filesystem::create_directories(home / "configs" / "presets");
  std::filesystem::copy_file(
      std::filesystem::path(SASSIM_SOURCE_DIR) / "configs" / "presets" / "a100.txtpb",
      home / "configs" / "presets" / "mygpu.txtpb",
      std::filesystem::copy_options::overwrite_existing);
  const char* previous = std::getenv("SASSIM_HOME");
  const std::string saved = previous != nullptr ? previous : "";
  ASSERT_EQ(setenv("SASSIM_HOME", home.c_str(), 1), 0);
  const std::vector<std::string> names = preset_names();
  const std::filesystem::path dir = preset_dir();
  const std::string loaded_name = load_config("mygpu").name();
  if (previous != nullptr) {
    setenv("SASSIM_HOME", saved.c_str(), 1);
  } else {
    unsetenv("SASSIM_HOME");
  }
  EXPECT_EQ(names, std::vector<std::string>{"mygpu"});
  EXPECT_EQ(dir, home / "configs" / "presets");
  EXPECT_EQ(loaded_name, "NVIDIA A100-SXM4-40GB");
  EXPECT_THAT(preset_names(), ::testing::Contains("a100"));
  EXPECT_THAT(preset_names(), Not(::testing::Contains("mygpu")));
}

TEST(Loader, ToTextWritesDefaults) {
  const std::string text = to_text(load_config("a100"));
  EXPECT_THAT(text, HasSubstr("policy: \"gto\""));
  EXPECT_THAT(text, HasSubstr("deadlock_cycles: 100000"));
  EXPECT_THAT(text, HasSubstr("line_bytes: 128"));
  EXPECT_THAT(text, Not(HasSubstr("base:")));
}

}  // namespace
}  // namespace sassim::config
