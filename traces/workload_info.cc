#include "traces/workload_info.h"

#include <charconv>
#include <fstream>
#include <map>
#include <sstream>

#include <fmt/format.h>

#include "ground/error.h"

namespace sassim::traces {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kKeys[] = {"workload", "phase",  "batch",
                                      "context",  "tokens", "model_layers"};

std::uint64_t count(const std::string& value, const std::string& where, std::string_view key) {
  std::uint64_t v = 0;
  const char* end = value.data() + value.size();
  const auto [ptr, ec] = std::from_chars(value.data(), end, v);
  if (ec != std::errc() || ptr != end) {
    throw Error(fmt::format("{}: {} '{}': expected a whole number", where, key, value));
  }
  return v;
}

}  // namespace

fs::path trace_folder(const fs::path& trace) {
  std::error_code ec;
  return fs::is_directory(trace, ec) ? trace : trace.parent_path();
}

void write_workload_info(const fs::path& folder, const WorkloadInfo& info) {
  const fs::path path = folder / kWorkloadFile;
  std::ofstream out(path);
  out << "# what one replay of this trace folder computes (sassim workload)\n"
      << "workload " << info.workload << "\nphase " << info.phase << "\nbatch " << info.batch
      << "\ncontext " << info.context << "\ntokens " << info.tokens << "\nmodel_layers "
      << info.model_layers << "\n";
  out.flush();
  if (!out) throw Error(fmt::format("{}: cannot write the workload description", path.string()));
}

std::optional<WorkloadInfo> read_workload_info(const fs::path& trace) {
  const fs::path path = trace_folder(trace) / kWorkloadFile;
  std::error_code ec;
  if (!fs::exists(path, ec)) return std::nullopt;
  std::ifstream in(path);
  if (!in) throw Error(fmt::format("{}: cannot be read", path.string()));
  std::map<std::string, std::string, std::less<>> values;
  std::map<std::string, std::string, std::less<>> where_of;
  std::string line;
  for (std::uint64_t number = 1; std::getline(in, line); ++number) {
    const std::string where = fmt::format("{}:{}", path.string(), number);
    line = line.substr(0, line.find('#'));
    std::istringstream words(line);
    std::string key, value, extra;
    if (!(words >> key)) continue;
    if (!(words >> value) || (words >> extra)) {
      throw Error(fmt::format("{}: expected 'KEY VALUE', found '{}'", where, line));
    }
    bool known = false;
    for (std::string_view k : kKeys) known = known || k == key;
    if (!known) {
      throw Error(
          fmt::format("{}: unknown key '{}': expected workload, phase, batch, context, tokens or "
                      "model_layers",
                      where, key));
    }
    if (values.contains(key)) throw Error(fmt::format("{}: {} given twice", where, key));
    values[key] = value;
    where_of[key] = where;
  }
  for (std::string_view k : kKeys) {
    if (!values.contains(k)) throw Error(fmt::format("{}: no {} line", path.string(), k));
  }
  WorkloadInfo info;
  info.workload = values["workload"];
  info.phase = values["phase"];
  if (info.phase != "decode" && info.phase != "prefill") {
    throw Error(
        fmt::format("{}: phase '{}': expected decode or prefill", where_of["phase"], info.phase));
  }
  info.batch = count(values["batch"], where_of["batch"], "batch");
  info.context = count(values["context"], where_of["context"], "context");
  info.tokens = count(values["tokens"], where_of["tokens"], "tokens");
  info.model_layers = count(values["model_layers"], where_of["model_layers"], "model_layers");
  for (std::string_view k : {std::string_view("tokens"), std::string_view("model_layers")}) {
    if (count(values.find(k)->second, "", k) == 0) {
      throw Error(fmt::format("{}: {} 0: expected at least 1", where_of.find(k)->second, k));
    }
  }
  return info;
}

}  // namespace sassim::traces
