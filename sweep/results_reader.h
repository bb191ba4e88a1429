#pragma once
// Reading one run's results.h5 (layout in docs/RESULTS.md) with the HDF5 C++ API.
#include <filesystem>
#include <string>
#include <vector>

#include "sweep/table.h"

namespace sassim::sweep {

struct RunResults {
  // The /kernels table, one column per member of its compound type, in the file's
  // order: integers as int64 or uint64 by their sign, floats as double, strings.
  std::vector<Column> kernels;
  std::size_t kernel_count = 0;
  std::vector<std::string> stat_names;  // /stats/names
  std::vector<double> stat_values;      // /stats/values, kernel_count x stat_names
};

// Throws sassim::Error naming the file and what is wrong with it.
RunResults read_run_results(const std::filesystem::path& file);

// The resolved config a results file was made with (its /config text), read after its
// seal is checked. Throws sassim::Error naming the file.
std::string read_results_config(const std::filesystem::path& file);

// True when the file is an HDF5 file holding a /kernels table and /stats.
bool results_file_complete(const std::filesystem::path& file);

}  // namespace sassim::sweep
