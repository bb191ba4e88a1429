#pragma once
// Parsing Protobuf text format with located errors: one config text (GpuConfig,
// without following `base`), or any message (sweep specs).
#include <filesystem>
#include <string>
#include <string_view>

#include <google/protobuf/message.h>
#include <google/protobuf/text_format.h>

#include "configs/sassim_config.pb.h"

namespace sassim::config {

// Parses `text` into `message`, recording field positions into `locations` when
// given. Syntax errors and unknown fields (pointed at by name, with the message's
// fields listed) throw sassim::Error with one "source:line:column: message" line per
// problem (line and column from 1); `what` names the text in the fallback message.
void parse_text_message(std::string_view text, const std::string& source, std::string_view what,
                        google::protobuf::Message& message,
                        google::protobuf::TextFormat::ParseInfoTree* locations = nullptr);

// Parses `text`; syntax errors and unknown fields throw sassim::Error with one
// "source:line:column: message" line per problem (line and column from 1).
GpuConfig parse_config_text(std::string_view text, const std::string& source);

// Reads and parses a file; a missing or unreadable file throws sassim::Error.
GpuConfig read_config_file(const std::filesystem::path& path);

}  // namespace sassim::config
