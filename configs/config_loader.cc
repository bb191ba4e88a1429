#include "configs/config_loader.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <system_error>

#include <fmt/format.h>

#include "configs/choices.h"
#include "configs/data_home.h"
#include "configs/text_parser.h"
#include "ground/error.h"

namespace sassim::config {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kPresetExtension = ".txtpb";

// A bare name ("a100") names a preset; anything with a '/' or a '.' is a path.
bool is_preset_name(std::string_view text) {
  return !text.empty() && text.find_first_of("/\\.") == std::string_view::npos;
}

std::string joined(const std::vector<std::string>& items, std::string_view separator) {
  std::string out;
  for (const std::string& item : items) {
    if (!out.empty()) out += separator;
    out += item;
  }
  return out;
}

bool same_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

// The preset file of `name`; case is ignored ("A100" is a100).
fs::path preset_path(std::string_view name) {
  fs::path path = preset_dir() / (std::string(name) + std::string(kPresetExtension));
  std::error_code ec;
  if (fs::is_regular_file(path, ec)) return path;
  const std::vector<std::string> names = preset_names();
  for (const std::string& known : names) {
    if (same_ignoring_case(known, name))
      return preset_dir() / (known + std::string(kPresetExtension));
  }
  const std::vector<std::string_view> views(names.begin(), names.end());
  const std::optional<std::string_view> suggestion = closest_name(name, views);
  throw Error(fmt::format("unknown preset '{}'{} (known presets: {}; read from {})", name,
                          suggestion ? fmt::format(", did you mean '{}'?", *suggestion) : "",
                          names.empty() ? "none" : joined(names, ", "), preset_dir().string()));
}

// One file of a base chain, as the user or a `base` field named it.
struct ChainLink {
  fs::path path;
  std::string identity;  // canonical path, to detect cycles
};

std::string chain_text(const std::vector<ChainLink>& chain, const fs::path& repeated) {
  std::string text;
  for (const ChainLink& link : chain) text += link.path.string() + " -> ";
  return text + repeated.string();
}

// Reads `path` and, recursively, its bases; returns the merged config.
GpuConfig load_chain(const fs::path& path, std::vector<ChainLink>& chain) {
  std::error_code ec;
  fs::path canonical = fs::weakly_canonical(path, ec);
  const std::string identity = ec ? path.lexically_normal().string() : canonical.string();
  for (const ChainLink& link : chain) {
    if (link.identity == identity) {
      throw Error(fmt::format("config base cycle: {}", chain_text(chain, path)));
    }
  }
  GpuConfig derived = read_config_file(path);
  if (!derived.has_base()) return derived;

  chain.push_back({path, identity});
  const std::string& base = derived.base();
  fs::path base_path;
  try {
    base_path = is_preset_name(base) ? preset_path(base) : path.parent_path() / base;
    if (!fs::is_regular_file(base_path, ec)) {
      throw Error(fmt::format("no config file at '{}'", base_path.string()));
    }
  } catch (const Error& e) {
    throw Error(fmt::format("{}: base \"{}\": {}", path.string(), base, e.what()));
  }
  GpuConfig merged = load_chain(base_path, chain);
  chain.pop_back();
  // Fields set in the derived file win; nested messages merge field by field and
  // map entries by key (proto2 MergeFrom semantics).
  merged.MergeFrom(derived);
  return merged;
}

}  // namespace

fs::path preset_dir() {
  return data_home() / "configs" / "presets";
}

std::vector<std::string> preset_names() {
  std::vector<std::string> names;
  std::error_code ec;
  for (fs::directory_iterator it(preset_dir(), ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().extension() == kPresetExtension && it->is_regular_file(ec)) {
      names.push_back(it->path().stem().string());
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

GpuConfig load_config(std::string_view preset_or_path, const std::vector<std::string>& overrides) {
  if (preset_or_path.empty()) throw Error("no preset or config file given");
  const fs::path path =
      is_preset_name(preset_or_path) ? preset_path(preset_or_path) : fs::path(preset_or_path);
  std::vector<ChainLink> chain;
  GpuConfig config = load_chain(path, chain);
  config.clear_base();
  for (const std::string& assignment : overrides) apply_override(config, assignment);
  try {
    validate(config);
  } catch (const Error& e) {
    throw Error(fmt::format("invalid config {}{}:\n{}", path.string(),
                            overrides.empty() ? "" : " (with --set overrides)", e.what()));
  }
  return config;
}

}  // namespace sassim::config
