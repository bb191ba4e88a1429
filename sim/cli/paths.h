#pragma once
// Where sassim finds its bundled files: $SASSIM_HOME, else an installed binary's
// share/sassim, else the source tree it was built from (configs/data_home.h).
#include <filesystem>
#include <vector>

#include "configs/data_home.h"

namespace sassim::cli {

inline std::filesystem::path sassim_home() {
  return config::data_home();
}

// The places a path the user gave for bundled data (a listing) may name, in order: the
// path itself (from the current directory) and, when it is relative, the same path in
// the data home.
inline std::vector<std::filesystem::path> data_path_candidates(const std::filesystem::path& given) {
  if (given.is_absolute()) return {given};
  return {given, sassim_home() / given};
}

// The real trace `sassim run` replays when given none: Rodinia BFS captured on a V100.
inline std::filesystem::path default_trace() {
  return sassim_home() /
         "traces/reference/v100-rodinia-bfs/util/tracer_nvbit/traces/bfs-rodinia-3.1";
}

}  // namespace sassim::cli
