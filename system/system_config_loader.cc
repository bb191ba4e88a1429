#include "system/system_config_loader.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>
#include <system_error>

#include <fmt/format.h>

#include "configs/config_loader.h"
#include "configs/data_home.h"
#include "configs/text_parser.h"
#include "ground/error.h"
#include "system/system_config_checks.h"

namespace sassim::system {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kExtension = ".txtpb";

bool is_preset_name(std::string_view text) {
  return !text.empty() && text.find_first_of("/\\.") == std::string_view::npos;
}

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

fs::path preset_path(std::string_view name) {
  const std::vector<std::string> names = system_preset_names();
  for (const std::string& known : names) {
    if (lower(known) == lower(name)) return system_preset_dir() / (known + std::string(kExtension));
  }
  std::string list;
  for (const std::string& known : names) list += (list.empty() ? "" : ", ") + known;
  throw Error(fmt::format("unknown system preset '{}' (known system presets: {}; read from {})",
                          name, list.empty() ? "none" : list, system_preset_dir().string()));
}

std::string read_text(const fs::path& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) {
    throw Error(fmt::format("system config file '{}' does not exist", path.string()));
  }
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in) throw Error(fmt::format("cannot read system config file '{}'", path.string()));
  return text.str();
}

}  // namespace

fs::path system_preset_dir() {
  return config::data_home() / "configs" / "systems";
}

std::vector<std::string> system_preset_names() {
  std::vector<std::string> names;
  std::error_code ec;
  for (fs::directory_iterator it(system_preset_dir(), ec), end; !ec && it != end;
       it.increment(ec)) {
    if (it->path().extension() == kExtension) names.push_back(it->path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

config::SystemConfig parse_system_config(std::string_view text, const std::string& source) {
  return parse_system_config(text, source, {});
}

config::SystemConfig parse_system_config(std::string_view text, const std::string& source,
                                         const std::vector<std::string>& overrides) {
  config::SystemConfig system;
  google::protobuf::TextFormat::ParseInfoTree locations;
  config::parse_text_message(text, source, "the system config", system, &locations);
  for (const std::string& assignment : overrides) {
    try {
      config::apply_override(system, assignment);
    } catch (const Error& e) {
      std::string message = e.what();
      if (message.starts_with("--set ")) message = "--system-set " + message.substr(6);
      throw Error(message);
    }
  }
  const std::vector<std::string> problems = check_system_config(system, locations, source);
  if (!problems.empty()) {
    std::string message = fmt::format("invalid system config {}:", source);
    for (const std::string& problem : problems) message += "\n" + problem;
    throw Error(message);
  }
  return system;
}

config::SystemConfig load_system_config(std::string_view preset_or_path,
                                        const std::vector<std::string>& overrides) {
  if (preset_or_path.empty()) throw Error("no system preset or file given");
  const fs::path path =
      is_preset_name(preset_or_path) ? preset_path(preset_or_path) : fs::path(preset_or_path);
  return parse_system_config(read_text(path), path.string(), overrides);
}

}  // namespace sassim::system
