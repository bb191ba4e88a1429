#pragma once
// The checks of a parsed system config: required fields, (spec) ranges and the
// combinations configs/system_config.proto states, each problem located in the text.
#include <string>
#include <vector>

#include <google/protobuf/text_format.h>

#include "configs/system_config.pb.h"

namespace sassim::system {

// Every problem, one line each: "source:line:column: path = value is out of range [lo,
// hi] unit" for a written field, "source: missing field path" for an absent one, and
// "source[:line:column]: path: what was expected" for a combination.
std::vector<std::string> check_system_config(
    const config::SystemConfig& system,
    const google::protobuf::TextFormat::ParseInfoTree& locations, const std::string& source);

}  // namespace sassim::system
