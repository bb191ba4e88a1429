#pragma once
// The resolved config as JSON and as a flat list of fields, for `sassim config show
// --format json|csv`. Both write every default out, as to_text() does.
#include <string>
#include <utility>
#include <vector>

#include "configs/sassim_config.pb.h"

namespace sassim::config {

// Protobuf's JSON mapping, fields named as in the schema (as --set names them); the two
// uint64 fields are strings, as that mapping writes 64-bit integers.
std::string to_json(const GpuConfig& config);

// Every scalar field that has a value, as (path, value text), in the schema's order.
// Paths are those --set takes: `sm.scheduler.policy`; a list of numbers is one field,
// its values joined by commas (`cluster.gpc_sms` = "18,18,16"); a map entry is
// `<map>.<key>` (`sm.opcode_latency_cycles.HGMMA`); a list of messages numbers its
// items (`sm.tensor_ops[0].opcode`). Values are written as in the text format.
std::vector<std::pair<std::string, std::string>> flat_fields(const GpuConfig& config);

}  // namespace sassim::config
