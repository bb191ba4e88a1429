#pragma once
// Names for people: kernel names demangled, long text shortened in the middle so that
// both its start (the namespace and name) and its end (the template arguments and
// parameters) stay visible.
#include <cstddef>
#include <string>
#include <string_view>

namespace sassim {

// The demangled form of an Itanium-mangled name (abi::__cxa_demangle), surrounding
// blanks removed; other names, and names that do not demangle, are returned as given.
std::string demangle(std::string_view name);

// `text` when it fits in `width` characters; else its first and last characters with
// "..." between them, `width` in all (width < 5: the first `width` characters).
std::string shorten_middle(std::string_view text, std::size_t width);

// A kernel's name for a table column: demangled, without the `void ` every kernel
// returns, shortened in the middle to `width`.
std::string kernel_display_name(std::string_view name, std::size_t width);

}  // namespace sassim
