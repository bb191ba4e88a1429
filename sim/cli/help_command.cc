// `sassim help [COMMAND]`: the usage of one command, or of all of them.
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "configs/choices.h"
#include "ground/error.h"
#include "sim/cli/commands.h"

namespace sassim::cli {

void add_help_command(CLI::App& app) {
  auto command = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand("help", "Show the usage of a command (or of sassim)");
  cmd->add_option("command", *command, "the command: run, config, trace, sweep, ...");
  cmd->callback([&app, command] {
    if (command->empty()) {
      // Not app.help(): it shows the selected subcommand's usage, which is this one.
      fmt::print("{}",
                 app.get_formatter()->make_help(&app, app.get_name(), CLI::AppFormatMode::Normal));
      return;
    }
    std::vector<std::string> names;
    for (const CLI::App* sub : app.get_subcommands({})) {
      if (sub->get_name() == *command) {
        fmt::print("{}", sub->help());
        return;
      }
      if (sub->get_name() != "help") names.push_back(sub->get_name());
    }
    const std::vector<std::string_view> views(names.begin(), names.end());
    const auto suggestion = config::closest_name(*command, views);
    throw UsageError(fmt::format("help: no command '{}'{} (commands: {})", *command,
                                 suggestion ? fmt::format(", did you mean '{}'?", *suggestion) : "",
                                 fmt::join(names, ", ")));
  });
}

}  // namespace sassim::cli
