#include "traces/trace_listings.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <map>
#include <string>

#include <fmt/format.h>

#include "ground/error.h"
#include "traces/workload_info.h"

namespace sassim::traces {
namespace {

namespace fs = std::filesystem;

std::string contents(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw Error(fmt::format("{}: cannot be read", file.string()));
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

void store_listings(const fs::path& folder, const std::vector<fs::path>& listings) {
  const fs::path into = folder / kListingsFolder;
  std::error_code ec;
  fs::create_directories(into, ec);
  if (ec) throw Error(fmt::format("{}: cannot be made: {}", into.string(), ec.message()));
  // A folder written again keeps only the new trace's listings.
  for (const fs::path& old : stored_listings(folder)) fs::remove(old, ec);
  std::map<std::string, fs::path> by_name;
  for (const fs::path& listing : listings) {
    const std::string name = listing.filename().string();
    const auto [it, fresh] = by_name.emplace(name, listing);
    if (!fresh) {
      if (contents(it->second) == contents(listing)) continue;
      throw Error(
          fmt::format("{} and {}: two different listings of one name; a trace folder "
                      "keeps one {}",
                      it->second.string(), listing.string(), name));
    }
    fs::copy_file(listing, into / name, fs::copy_options::overwrite_existing, ec);
    if (ec) {
      throw Error(fmt::format("{}: cannot be copied to {}: {}", listing.string(),
                              (into / name).string(), ec.message()));
    }
  }
}

std::vector<fs::path> stored_listings(const fs::path& trace) {
  const fs::path from = trace_folder(trace) / kListingsFolder;
  std::vector<fs::path> found;
  std::error_code ec;
  if (!fs::is_directory(from, ec)) return found;
  for (const fs::directory_entry& entry : fs::directory_iterator(from, ec)) {
    if (entry.path().extension() == ".sass") found.push_back(entry.path());
  }
  if (ec) throw Error(fmt::format("{}: cannot be listed: {}", from.string(), ec.message()));
  std::sort(found.begin(), found.end());
  return found;
}

}  // namespace sassim::traces
