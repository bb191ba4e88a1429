#include "ground/display_name.h"

#include <cxxabi.h>

#include <cctype>
#include <cstdlib>
#include <memory>

namespace sassim {

std::string demangle(std::string_view name) {
  while (!name.empty() && std::isspace(static_cast<unsigned char>(name.front())))
    name.remove_prefix(1);
  while (!name.empty() && std::isspace(static_cast<unsigned char>(name.back())))
    name.remove_suffix(1);
  const std::string text(name);
  if (!text.starts_with("_Z")) return text;
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> out(
      abi::__cxa_demangle(text.c_str(), nullptr, nullptr, &status), std::free);
  return status == 0 && out ? std::string(out.get()) : text;
}

std::string shorten_middle(std::string_view text, std::size_t width) {
  if (text.size() <= width) return std::string(text);
  if (width < 5) return std::string(text.substr(0, width));
  const std::size_t keep = width - 3;
  const std::size_t head = (keep + 1) / 2;
  const std::size_t tail = keep - head;
  return std::string(text.substr(0, head)) + "..." + std::string(text.substr(text.size() - tail));
}

std::string kernel_display_name(std::string_view name, std::size_t width) {
  std::string d = demangle(name);
  if (d.starts_with("void ")) d.erase(0, 5);
  return shorten_middle(d, width);
}

}  // namespace sassim
