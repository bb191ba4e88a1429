#pragma once
// Loading, merging, overriding and validating GPU configs.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "configs/sassim_config.pb.h"

namespace sassim::config {

// Names of the bundled presets ("v100", "a100", ...), sorted.
std::vector<std::string> preset_names();
// Folder holding the bundled preset files: configs/presets of data_home()
// (configs/data_home.h): $SASSIM_HOME, an installed binary's share/sassim, or the source tree.
std::filesystem::path preset_dir();

// Loads a preset by name or a config file by path, following `base` chains,
// applies the overrides ("sm.scheduler.policy=lrr") in order, validates, and
// returns the resolved config (with `base` cleared). Throws sassim::Error naming
// the file with line and column, or the field path, on any problem.
// A bare name (no '/', no '.') is a preset; anything else is a file path.
GpuConfig load_config(std::string_view preset_or_path,
                      const std::vector<std::string>& overrides = {});

// Applies one "a.b.c=value" override by reflection. Throws sassim::Error.
void apply_override(GpuConfig& config, std::string_view assignment);
// The same on any config message (a multi-GPU SystemConfig).
void apply_override(google::protobuf::Message& config, std::string_view assignment);

// Checks ranges, required fields and combinations. Throws sassim::Error listing
// every problem found, one per line.
void validate(const GpuConfig& config);

// Text format of a config (for `config show` and the results file). Every field
// appears, defaults included, so the text states each value a run used; parsing
// it back gives the same values.
std::string to_text(const GpuConfig& config);
// The config with every unset field that has a declared default set to it (what
// to_text() prints).
GpuConfig with_defaults(const GpuConfig& config);

}  // namespace sassim::config
