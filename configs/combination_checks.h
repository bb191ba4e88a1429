#pragma once
// Checks that relate several fields (or check a field against a list of names) and
// cannot be stated per field in the schema.
#include <string>
#include <vector>

#include "configs/sassim_config.pb.h"

namespace sassim::config {

// Appends one message per violated combination; each names the fields involved.
// Expects every required field to be present (validate() checks that first).
void check_combinations(const GpuConfig& config, std::vector<std::string>& problems);

// Accepted values of the name-valued fields.
const std::vector<std::string>& known_arch_names();      // "sm_60", ..., "sm_90"
const std::vector<std::string>& known_dram_types();      // "HBM2", ..., "GDDR6X"
const std::vector<std::string>& known_address_hashes();  // "linear", "xor", "ipoly"
// "row_column_bank", "row_bank_column"
const std::vector<std::string>& known_dram_address_schemes();

}  // namespace sassim::config
