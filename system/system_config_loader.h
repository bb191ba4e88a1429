#pragma once
// Loading and validating multi-GPU system configs (configs/system_config.proto): the
// presets in configs/systems and files given by path.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "configs/system_config.pb.h"

namespace sassim::system {

// Folder of the bundled system presets: configs/systems of config::data_home().
std::filesystem::path system_preset_dir();
// Names of the bundled system presets ("a100x8", "h100x8", ...), sorted.
std::vector<std::string> system_preset_names();

// Parses and validates one system config text. Syntax errors, unknown fields, missing
// fields, out-of-range values and impossible combinations throw sassim::Error listing
// every problem, one a line, as "source:line:column: field.path ..." where the field
// was written and "source: field.path ..." where it is missing.
config::SystemConfig parse_system_config(std::string_view text, const std::string& source);
// The same with overrides applied before the checks.
config::SystemConfig parse_system_config(std::string_view text, const std::string& source,
                                         const std::vector<std::string>& overrides);

// Loads a preset by name (a bare name: no '/', no '.'; case ignored) or a file by path,
// then applies "a.b.c=value" overrides (`sassim run --system-set`) before validating.
config::SystemConfig load_system_config(std::string_view preset_or_path,
                                        const std::vector<std::string>& overrides = {});

}  // namespace sassim::system
