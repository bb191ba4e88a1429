// Loading system configs: the presets, and errors that name the file, line and field.
#include <gtest/gtest.h>

#include "ground/error.h"
#include "system/system_config_loader.h"
#include "tests/system/system_fixtures.h"

namespace sassim::system {
namespace {

std::string error_of(const std::string& text) {
  try {
    parse_system_config(text, "bad.txtpb");
  } catch (const Error& e) {
    return e.what();
  }
  ADD_FAILURE() << "no error for:\n" << text;
  return "";
}

// The small test system with `from` replaced by `to`.
std::string edited(const std::string& from, const std::string& to) {
  std::string text = testing::small_system_text(4, 6, false, 50, 0);
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

TEST(SystemConfig, PresetsLoad) {
  const std::vector<std::string> names = system_preset_names();
  EXPECT_EQ(names, (std::vector<std::string>{"a100x8", "h100x8", "h200x16-2node", "h200x8"}));
  for (const std::string& name : names) {
    const config::SystemConfig c = load_system_config(name);
    EXPECT_FALSE(c.name().empty()) << name;
  }
  EXPECT_EQ(load_system_config("H100X8").nvlink().links_per_gpu(), 18u);  // case ignored
  EXPECT_EQ(load_system_config("h200x16-2node").nodes(), 2u);
  EXPECT_FALSE(load_system_config("a100x8").nvswitch().nvls());
}

TEST(SystemConfig, UnknownPresetListsTheKnownOnes) {
  try {
    load_system_config("h300x8");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("unknown system preset 'h300x8' (known system "
                                         "presets: a100x8, h100x8, h200x16-2node, h200x8"),
              std::string::npos)
        << e.what();
  }
}

TEST(SystemConfig, OutOfRangeNamesFileLineAndField) {
  const std::string text = edited("links_per_gpu: 6", "links_per_gpu: 99");
  EXPECT_EQ(error_of(text),
            "invalid system config bad.txtpb:\n"
            "bad.txtpb:4:24: nvlink.links_per_gpu = 99 is out of range [0, 36] links");
}

TEST(SystemConfig, MissingFieldIsNamed) {
  EXPECT_NE(
      error_of(edited("gpus_per_node: 4\n", "")).find("bad.txtpb: missing field gpus_per_node"),
      std::string::npos);
  EXPECT_NE(error_of(edited("latency_ns: 50 ", "")).find("missing field nvlink.latency_ns"),
            std::string::npos);
  EXPECT_NE(error_of(edited("  ll128 {", "  xx {")).find("bad.txtpb:9:3"), std::string::npos);
}

TEST(SystemConfig, UnknownFieldIsLocated) {
  const std::string message = error_of(edited("gpus_per_node: 4", "gpus_per_nod: 4"));
  EXPECT_NE(message.find("bad.txtpb:2:1:"), std::string::npos) << message;
  EXPECT_NE(message.find("gpus_per_nod"), std::string::npos) << message;
}

TEST(SystemConfig, CombinationsAreChecked) {
  EXPECT_NE(error_of(edited("links_per_gpu: 6", "links_per_gpu: 4"))
                .find("bad.txtpb:4:24: nvlink.links_per_gpu = 4: without an NVSwitch the links "
                      "are spread evenly over the 3 other GPUs of a node, so it must be a "
                      "multiple of 3"),
            std::string::npos);
  EXPECT_NE(error_of(edited("present: false", "present: false nvls: true"))
                .find("nvswitch.nvls needs nvswitch.present and nvswitch.generation >= 3"),
            std::string::npos);
  EXPECT_NE(error_of(edited("gpu_preset: \"h100\"", "gpu_preset: \"h900\""))
                .find("bad.txtpb:3:1: gpu_preset \"h900\" names no GPU preset"),
            std::string::npos);
  EXPECT_NE(error_of(edited("gpus_per_node: 4", "gpus_per_node: 4 nodes: 2"))
                .find("bad.txtpb: missing field nic (nodes > 1)"),
            std::string::npos);
}

TEST(SystemConfig, EveryProblemIsListed) {
  std::string text = edited("links_per_gpu: 6", "links_per_gpu: 99");
  text.replace(text.find("gb_per_s: 50"), 12, "gb_per_s: 0");
  const std::string message = error_of(text);
  EXPECT_NE(message.find("nvlink.links_per_gpu = 99"), std::string::npos) << message;
  EXPECT_NE(message.find("pcie.gb_per_s = 0 is out of range [0.1, 1000] GB/s"), std::string::npos)
      << message;
}

}  // namespace
}  // namespace sassim::system
