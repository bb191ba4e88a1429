#pragma once
// The value a config field path ("sm.scheduler.policy", "sm.opcode_latency_cycles.IMAD")
// has in a resolved config, as a column of the merged table: integers as int64 or
// uint64, floating point as double, strings and enums as text, bools as 0/1. A field
// left unset reads as its default; a map key left unset reads as 0 (or "").
#include <string>

#include "configs/sassim_config.pb.h"
#include "sweep/table.h"

namespace sassim::sweep {

// An empty column of the type the path's field has. Throws sassim::Error for a path
// that names no scalar field (load_sweep_plan has checked the paths already).
Column make_param_column(const std::string& path);

// Appends the config's value at the column's path (its name) to the column.
void append_param_value(Column& column, const config::GpuConfig& config);

}  // namespace sassim::sweep
