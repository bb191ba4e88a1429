#pragma once
// Checks of where output goes.
#include <string>

namespace sassim::cli {

// Checks a results path before any simulation: it names an HDF5 file (.h5 or .hdf5)
// in an existing folder this process may write to. Throws sassim::Error naming the
// path, what was expected and the system's reason.
void check_results_path(const std::string& path);

// "cannot write the standard output: REASON" for the errno value `error`.
std::string stdout_error(int error);
// Flushes stdout; throws sassim::Error (stdout_error) when it or an earlier write to
// stdout failed: a full disk, a closed pipe.
void flush_stdout();

}  // namespace sassim::cli
