#pragma once
// ranks.g: the trace folder of a multi-GPU run (docs/MULTIGPU.md). One line a rank, in
// rank order: the rank's trace folder (an Accel-Sim folder with its kernelslist.g),
// relative to the ranks.g's folder. Ranks that name the same folder replay the same
// trace, which is simulated once. '#' starts a comment.
//   # tensor-parallel decode layer, 8 ranks with the same kernels
//   rank-0
//   rank-0
//   ...
#include <filesystem>
#include <string_view>
#include <vector>

namespace sassim::multigpu {

inline constexpr std::string_view kRanksFile = "ranks.g";

// `trace` (a folder, or its ranks.g) holds a ranks.g.
bool is_system_trace(const std::filesystem::path& trace);

// The rank folders, canonical, one a rank. Throws sassim::Error naming the file and line
// of a folder that does not exist or holds no kernelslist.g, and for a list with no rank.
std::vector<std::filesystem::path> read_ranks_file(const std::filesystem::path& trace);

// Writes FOLDER/ranks.g naming `rank_folders` (relative to FOLDER), with a comment line.
// Throws sassim::Error naming the file when it cannot.
void write_ranks_file(const std::filesystem::path& folder, std::string_view comment,
                      const std::vector<std::string>& rank_folders);

}  // namespace sassim::multigpu
