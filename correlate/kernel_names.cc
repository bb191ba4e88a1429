#include "correlate/kernel_names.h"

#include "ground/display_name.h"

#include <cctype>
#include <cstdlib>
#include <memory>

namespace sassim::correlate {
namespace {

bool identifier_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

std::string trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return std::string(s);
}

// Index of the bracket opening the one that closes at `close`, scanning backwards;
// npos when unbalanced.
std::size_t matching_open(const std::string& s, std::size_t close, char open_char,
                          char close_char) {
  int depth = 0;
  for (std::size_t i = close + 1; i-- > 0;) {
    if (s[i] == close_char) ++depth;
    if (s[i] == open_char && --depth == 0) return i;
  }
  return std::string::npos;
}

}  // namespace

std::string full_kernel_name(std::string_view name) {
  const std::string d = demangle(name);
  std::string s;
  for (std::size_t i = 0; i < d.size(); ++i) {
    if (!std::isspace(static_cast<unsigned char>(d[i]))) {
      s += d[i];
      continue;
    }
    std::size_t next = i;
    while (next < d.size() && std::isspace(static_cast<unsigned char>(d[next]))) ++next;
    if (!s.empty() && next < d.size() && identifier_char(s.back()) && identifier_char(d[next])) {
      s += ' ';
    }
    i = next - 1;
  }
  // Drop the return type, which mangled names of non-template functions do not carry:
  // keep what follows the last top-level blank before the parameter list.
  if (s.empty() || s.back() != ')') return s;
  const std::size_t open = matching_open(s, s.size() - 1, '(', ')');
  if (open == std::string::npos) return s;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < open; ++i) {
    if (s[i] == '<' || s[i] == '(') ++depth;
    if (s[i] == '>' || s[i] == ')') --depth;
    if (depth == 0 && s[i] == ' ') start = i + 1;
  }
  return s.substr(start);
}

std::string base_kernel_name(std::string_view name) {
  std::string s = full_kernel_name(name);
  // Trailing qualifiers of member functions are not expected on kernels; parameters are.
  if (!s.empty() && s.back() == ')') {
    const std::size_t open = matching_open(s, s.size() - 1, '(', ')');
    if (open != std::string::npos && open > 0) s.resize(open);
  }
  if (!s.empty() && s.back() == '>') {
    const std::size_t open = matching_open(s, s.size() - 1, '<', '>');
    if (open != std::string::npos && open > 0) s.resize(open);
  }
  // Drop the return type and the qualifiers: keep what follows the last top-level space
  // or "::" (brackets of "(anonymous namespace)" and template arguments are skipped).
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '<' || c == '(') ++depth;
    if (c == '>' || c == ')') --depth;
    if (depth != 0) continue;
    if (c == ' ') start = i + 1;
    if (c == ':' && i + 1 < s.size() && s[i + 1] == ':') start = i + 2;
  }
  return s.substr(start);
}

bool has_signature(std::string_view name) {
  const std::string t = trim(name);
  return t.starts_with("_Z") || t.find('(') != std::string::npos;
}

}  // namespace sassim::correlate
