#pragma once
// Checks a results path before any simulation: it names an HDF5 file (.h5 or .hdf5)
// in an existing folder this process may write to. Throws sassim::Error naming the
// path, what was expected and the system's reason.
#include <string>

namespace sassim::cli {

void check_results_path(const std::string& path);

}  // namespace sassim::cli
