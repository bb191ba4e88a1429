#pragma once
// Checks that relate several fields and cannot be stated per field in the schema.
#include <optional>
#include <string>
#include <vector>

#include "configs/sassim_config.pb.h"
#include "isa/arch.h"

namespace sassim::config {

// Appends one message per violated combination; each names the fields involved.
// Expects every required field to be present (validate() checks that first).
void check_combinations(const GpuConfig& config, std::vector<std::string>& problems);

// Appends one message per problem of the `energy` section (configs/energy_checks.cc):
// its DRAM entries (a known memory type, pJ/bit in range), an entry for
// dram.type, the V-f floor at or below the reference voltage, idle SM power at most an
// active SM's. Nothing when the config has no energy section.
void check_energy(const GpuConfig& config, std::vector<std::string>& problems);

// Appends one message per name-valued field (arch, sm.scheduler.policy, l2.address_hash,
// dram.type, dram.address_scheme) whose value is not one its list accepts
// (configs/choices.h, isa::kAllArchs). Fields left unset without a default are skipped:
// the required-field check names them.
void check_names(const GpuConfig& config, std::vector<std::string>& problems);

// The problem with sm.tensor_ops[index] on `arch`, if any: the opcode must decode as a
// matrix instruction of `arch` with a known shape, and the per-N fields need a
// warpgroup form. check_names() reports it at load; the model refuses it too.
std::optional<std::string> tensor_op_problem(const TensorTiming& entry, int index, isa::Arch arch);

}  // namespace sassim::config
