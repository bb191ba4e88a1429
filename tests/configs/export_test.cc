// `config show --format json|csv`: the JSON reads back as the same config, and every
// flat path is one --set takes, whose value sets the field to what it was.
#include <map>
#include <string>

#include <gmock/gmock.h>
#include <google/protobuf/util/json_util.h>
#include <google/protobuf/util/message_differencer.h>
#include <gtest/gtest.h>

#include "configs/config_export.h"
#include "configs/config_loader.h"

namespace sassim::config {
namespace {

std::map<std::string, std::string> fields_of(const GpuConfig& config) {
  std::map<std::string, std::string> fields;
  for (const auto& [path, value] : flat_fields(config)) {
    EXPECT_TRUE(fields.emplace(path, value).second) << "path twice: " << path;
  }
  return fields;
}

TEST(ConfigExport, JsonReadsBackAsTheConfigWithItsDefaults) {
  for (const std::string& preset : preset_names()) {
    const GpuConfig config = load_config(preset);
    GpuConfig parsed;
    const auto status = google::protobuf::util::JsonStringToMessage(to_json(config), &parsed);
    ASSERT_TRUE(status.ok()) << preset << ": " << status.ToString();
    EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(parsed, with_defaults(config)))
        << preset;
  }
}

TEST(ConfigExport, JsonNamesFieldsAsTheSchemaDoes) {
  const std::string json = to_json(load_config("h100"));
  EXPECT_THAT(json, ::testing::HasSubstr("\"num_sms\": 132"));
  EXPECT_THAT(json, ::testing::HasSubstr("\"opcode_latency_cycles\": {"));
  EXPECT_THAT(json, ::testing::Not(::testing::HasSubstr("numSms")));
}

TEST(ConfigExport, FlatFieldsUseSetPaths) {
  const auto fields = fields_of(load_config("h100"));
  EXPECT_EQ(fields.at("num_sms"), "132");
  EXPECT_EQ(fields.at("name"), load_config("h100").name());
  EXPECT_EQ(fields.at("sm.opcode_latency_cycles.HGMMA"), "128");
  EXPECT_EQ(fields.at("sm.tensor_ops[0].opcode"), "HGMMA.64x256x16.F32");
  EXPECT_EQ(fields.at("sm.tensor_ops[0].latency_cycles_per_n"), "0.5");
  EXPECT_EQ(fields.count("base"), 0u);
  // A list of numbers is one field, comma-separated, as --set takes it.
  EXPECT_THAT(fields.at("cluster.gpc_sms"), ::testing::MatchesRegex("[0-9]+(,[0-9]+)+"));
  // Defaults are written out, as in the text format.
  EXPECT_EQ(fields.count("simulation.deadlock_cycles"), 1u);
}

TEST(ConfigExport, EveryScalarPathIsOneSetTakes) {
  // Each (path, value) applied to an empty config gives that field that value.
  for (const auto& [path, value] : flat_fields(load_config("h100"))) {
    if (path.find('[') != std::string::npos) continue;  // --set does not index lists
    GpuConfig empty;
    ASSERT_NO_THROW(apply_override(empty, path + "=" + value)) << path << "=" << value;
    EXPECT_EQ(fields_of(empty).at(path), value) << path;
  }
}

}  // namespace
}  // namespace sassim::config
