#include "multigpu/ranks_file.h"

#include <fstream>
#include <string>

#include <fmt/format.h>

#include "ground/error.h"
#include "traces/line_source.h"
#include "traces/tokens.h"
#include "traces/trace_error.h"

namespace sassim::multigpu {
namespace {

std::filesystem::path list_of(const std::filesystem::path& trace) {
  std::error_code ec;
  return std::filesystem::is_directory(trace, ec) ? trace / kRanksFile : trace;
}

}  // namespace

bool is_system_trace(const std::filesystem::path& trace) {
  std::error_code ec;
  const std::filesystem::path list = list_of(trace);
  return list.filename() == kRanksFile && std::filesystem::is_regular_file(list, ec);
}

std::vector<std::filesystem::path> read_ranks_file(const std::filesystem::path& trace) {
  const std::filesystem::path list = list_of(trace);
  auto lines = traces::open_line_source(list);
  const std::filesystem::path folder = list.parent_path();
  std::vector<std::filesystem::path> ranks;
  std::string_view raw;
  while (lines->next(raw)) {
    std::string_view line = raw.substr(0, raw.find('#'));
    line = traces::trim(line);
    if (line.empty()) continue;
    const std::filesystem::path named = folder / std::string(line);
    std::error_code ec;
    if (!std::filesystem::is_regular_file(named / "kernelslist.g", ec)) {
      traces::throw_at(*lines, fmt::format("rank {}: {} holds no kernelslist.g: expected the "
                                           "rank's trace folder, relative to {}",
                                           ranks.size(), named.string(),
                                           folder.empty() ? "." : folder.string()));
    }
    ranks.push_back(std::filesystem::canonical(named));
  }
  if (ranks.empty()) {
    throw Error(
        fmt::format("{}: no rank: expected one trace folder a line, in rank order", list.string()));
  }
  return ranks;
}

void write_ranks_file(const std::filesystem::path& folder, std::string_view comment,
                      const std::vector<std::string>& rank_folders) {
  const std::filesystem::path file = folder / kRanksFile;
  std::ofstream out(file);
  out << "# " << comment << "\n";
  for (const std::string& rank : rank_folders) out << rank << "\n";
  out.flush();
  if (!out) throw Error(fmt::format("{}: cannot write the ranks list", file.string()));
}

}  // namespace sassim::multigpu
