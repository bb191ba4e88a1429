#pragma once
// `sassim run DIR --system PRESET|FILE`: the ranks of a multi-GPU trace folder (its
// ranks.g, multigpu/ranks_file.h) on a system preset's GPUs and topology.
#include <string>
#include <vector>

namespace sassim::cli {

struct SystemRunArgs {
  std::string trace;                          // the folder holding ranks.g
  std::string system;                         // system preset or file
  std::vector<std::string> system_overrides;  // --system-set
  std::vector<std::string> overrides;         // --set on the GPU config
  std::string out;                            // OUT.h5: one OUT.rankR.h5 a distinct trace
  unsigned threads = 1;
  bool quiet = false;            // no progress display
  unsigned progress_every = 30;  // seconds between progress lines when stderr is no terminal
  bool json = false;  // --format json: the report as one JSON object, the notes on stderr
};

// Throws sassim::Error on bad input before anything is simulated; ExitStatus after a
// stop by a signal.
void run_system_trace(const SystemRunArgs& args);

}  // namespace sassim::cli
