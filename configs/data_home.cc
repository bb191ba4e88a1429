#include "configs/data_home.h"

#include <cstdlib>
#include <system_error>

namespace sassim::config {

namespace fs = std::filesystem;

fs::path installed_data_dir(const fs::path& exe) {
  return exe.parent_path().parent_path() / "share" / "sassim";
}

fs::path data_home() {
  if (const char* home = std::getenv("SASSIM_HOME"); home != nullptr && *home != '\0') return home;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const fs::path installed = installed_data_dir(exe);
    if (fs::is_directory(installed / "configs" / "presets", ec)) return installed;
  }
  return SASSIM_SOURCE_DIR;
}

}  // namespace sassim::config
