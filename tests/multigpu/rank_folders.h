#pragma once
// Multi-GPU trace folders for the multigpu tests: rank folders with a kernelslist.g (and
// the small_workload kernels) and a ranks.g naming them.
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace sassim::multigpu::testing {

inline const std::filesystem::path kSmallWorkload =
    std::filesystem::path(SASSIM_TEST_DATA_DIR) / "traces/small_workload";

// ROOT/NAME/kernelslist.g with `lines`, one a line, beside copies of small_workload's
// kernel-1.traceg and kernel-2.traceg.xz. Returns the folder.
inline std::filesystem::path write_rank(const std::filesystem::path& root, const std::string& name,
                                        const std::vector<std::string>& lines) {
  const std::filesystem::path folder = root / name;
  std::filesystem::create_directories(folder);
  for (const char* kernel : {"kernel-1.traceg", "kernel-2.traceg.xz"}) {
    std::filesystem::copy_file(kSmallWorkload / kernel, folder / kernel,
                               std::filesystem::copy_options::overwrite_existing);
  }
  std::ofstream list(folder / "kernelslist.g");
  for (const std::string& line : lines) list << line << "\n";
  return folder;
}

// ROOT/ranks.g naming `folders`, one a rank.
inline void write_ranks(const std::filesystem::path& root,
                        const std::vector<std::string>& folders) {
  std::ofstream ranks(root / "ranks.g");
  ranks << "# test ranks\n";
  for (const std::string& folder : folders) ranks << folder << "\n";
}

}  // namespace sassim::multigpu::testing
