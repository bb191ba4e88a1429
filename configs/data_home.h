#pragma once
// Where sassim finds its bundled data (configs/presets, the default trace, the SASS
// listings capture executes).
#include <filesystem>

namespace sassim::config {

// $SASSIM_HOME when it is set; else, for an installed binary (PREFIX/bin/sassim),
// PREFIX/share/sassim when it holds configs/presets; else the source tree the binary
// was built from.
std::filesystem::path data_home();

// PREFIX/share/sassim of an installed binary at PREFIX/bin/sassim: `exe`'s folder's
// parent / share / sassim.
std::filesystem::path installed_data_dir(const std::filesystem::path& exe);

}  // namespace sassim::config
