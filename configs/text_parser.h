#pragma once
// Parsing one config text (Protobuf text format of GpuConfig), without following `base`.
#include <filesystem>
#include <string>
#include <string_view>

#include "configs/sassim_config.pb.h"

namespace sassim::config {

// Parses `text`; syntax errors and unknown fields throw sassim::Error with one
// "source:line:column: message" line per problem (line and column from 1).
GpuConfig parse_config_text(std::string_view text, const std::string& source);

// Reads and parses a file; a missing or unreadable file throws sassim::Error.
GpuConfig read_config_file(const std::filesystem::path& path);

}  // namespace sassim::config
