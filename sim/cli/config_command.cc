// `sassim config show PRESET|FILE [--set ...] [--format table|json|csv]` and
// `sassim config list`.
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "configs/config_export.h"
#include "configs/config_loader.h"
#include "ground/error.h"
#include "sim/cli/commands.h"
#include "sim/cli/output_format.h"

namespace sassim::cli {
namespace {

// table: the Protobuf text format; json: its JSON mapping; csv: path,value rows.
void print_config(const config::GpuConfig& config, Format format) {
  switch (format) {
    case Format::kTable:
      fmt::print("{}", config::to_text(config));
      return;
    case Format::kJson:
      fmt::print("{}\n", config::to_json(config));
      return;
    case Format::kCsv:
      fmt::print("path,value\n");
      for (const auto& [path, value] : config::flat_fields(config)) {
        fmt::print("{},{}\n", csv_field(path), csv_field(value));
      }
      return;
  }
}

}  // namespace

void add_config_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand("config", "Inspect GPU configs and presets");
  cmd->require_subcommand(1);

  struct ShowOptions {
    std::string config;
    std::vector<std::string> overrides;
    Format format = Format::kTable;
  };
  auto show = std::make_shared<ShowOptions>();
  CLI::App* show_cmd = cmd->add_subcommand("show",
                                           "Print the resolved config (base presets merged, "
                                           "overrides applied, validated)");
  show_cmd->add_option("config", show->config, "preset name or config file")->required();
  show_cmd
      ->add_option("-s,--set", show->overrides, "override a config field: PATH=VALUE (repeatable)")
      ->type_name("PATH=VALUE")
      ->allow_extra_args(false);  // one value per -s: a following trace stays positional
  add_format_option(*show_cmd, show->format);
  show_cmd->callback(
      [show] { print_config(config::load_config(show->config, show->overrides), show->format); });

  CLI::App* list_cmd = cmd->add_subcommand("list", "List the bundled presets");
  list_cmd->callback([] {
    const std::vector<std::string> names = config::preset_names();
    if (names.empty()) {
      throw Error(fmt::format("no presets in {} (SASSIM_HOME names the folder holding configs/)",
                              config::preset_dir().string()));
    }
    for (const std::string& name : names) {
      const config::GpuConfig c = config::load_config(name);
      fmt::print("{:<10} {} ({}, {} SMs)\n", name, c.name(), c.arch(), c.num_sms());
    }
  });
}

}  // namespace sassim::cli
