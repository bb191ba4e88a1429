#pragma once
// Where sassim finds its bundled files: $SASSIM_HOME, else the source tree it was built from.
#include <cstdlib>
#include <filesystem>

namespace sassim::cli {

inline std::filesystem::path sassim_home() {
  if (const char* home = std::getenv("SASSIM_HOME"); home != nullptr && *home != '\0') return home;
  return SASSIM_SOURCE_DIR;
}

// The real trace `sassim run` replays when given none: Rodinia BFS captured on a V100.
inline std::filesystem::path default_trace() {
  return sassim_home() /
         "traces/reference/v100-rodinia-bfs/util/tracer_nvbit/traces/bfs-rodinia-3.1";
}

}  // namespace sassim::cli
