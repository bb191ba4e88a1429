// Lookups on a parsed listing and reading one from a file.
#include "traces/sass/listing.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "ground/error.h"

namespace sassim::traces::sass {

bool Operand::has_suffix(std::string_view s) const {
  return std::find(suffixes.begin(), suffixes.end(), s) != suffixes.end();
}

bool Instruction::has_modifier(std::string_view m) const {
  return std::find(modifiers.begin(), modifiers.end(), m) != modifiers.end();
}

std::optional<size_t> Function::index_of(uint64_t pc) const {
  auto it = std::lower_bound(instructions.begin(), instructions.end(), pc,
                             [](const Instruction& in, uint64_t p) { return in.pc < p; });
  if (it == instructions.end() || it->pc != pc) return std::nullopt;
  return static_cast<size_t>(it - instructions.begin());
}

const Instruction* Function::at_pc(uint64_t pc) const {
  auto index = index_of(pc);
  return index ? &instructions[*index] : nullptr;
}

const Function* Listing::find(std::string_view name) const {
  for (const Function& f : functions) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

Listing read_listing(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (std::filesystem::is_directory(path)) {
    throw Error(fmt::format("{}: a directory; expected a SASS listing file", path.string()));
  }
  if (!in) {
    throw Error(
        fmt::format("{}: cannot read the SASS listing: {}", path.string(), std::strerror(errno)));
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw Error(fmt::format("{}: error reading the SASS listing", path.string()));
  return parse_listing(text.str(), path.string());
}

}  // namespace sassim::traces::sass
