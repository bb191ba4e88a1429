#include "sim/cli/output_check.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "ground/error.h"

namespace sassim::cli {

void check_results_path(const std::string& path) {
  namespace fs = std::filesystem;
  const fs::path p(path);
  std::string ext = p.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (ext != ".h5" && ext != ".hdf5") {
    throw Error(
        fmt::format("--out {}: expected a file name ending in .h5 or .hdf5 (results are "
                    "written as HDF5, docs/RESULTS.md)",
                    path));
  }
  const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    throw Error(fmt::format("--out {}: the folder {} does not exist", path, dir.string()));
  }
  if (fs::is_directory(p, ec)) {
    throw Error(fmt::format("--out {}: is a folder; expected a file name", path));
  }
  const bool exists = fs::exists(p, ec);
  if (::access(exists ? p.c_str() : dir.c_str(), W_OK) != 0) {
    throw Error(fmt::format("--out {}: cannot write {}: {}", path,
                            exists ? p.string() : dir.string(), std::strerror(errno)));
  }
}

std::string stdout_error(int error) {
  return fmt::format("cannot write the standard output: {}",
                     error == 0 ? "a write failed" : std::strerror(error));
}

void flush_stdout() {
  if (std::fflush(stdout) == 0 && std::ferror(stdout) == 0) return;
  throw Error(stdout_error(errno));  // the failed flush's, or else the failed write's
}

}  // namespace sassim::cli
