#include "memsys/coalescer.h"

#include <algorithm>
#include <cassert>

namespace sassim::memsys {
namespace {

std::uint64_t low_bits(std::uint32_t n) {
  return n >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1;
}

// Sets bits [begin, end) of a bitmap.
void set_bits(std::uint64_t* words, std::uint32_t begin, std::uint32_t end) {
  while (begin < end) {
    std::uint32_t word = begin / 64;
    std::uint32_t offset = begin % 64;
    std::uint32_t count = std::min(end - begin, 64 - offset);
    words[word] |= low_bits(count) << offset;
    begin += count;
  }
}

// True when bits [begin, end) of a bitmap are all set.
bool all_set(const std::uint64_t* words, std::uint32_t begin, std::uint32_t end) {
  while (begin < end) {
    std::uint32_t word = begin / 64;
    std::uint32_t offset = begin % 64;
    std::uint32_t count = std::min(end - begin, 64 - offset);
    std::uint64_t mask = low_bits(count) << offset;
    if ((words[word] & mask) != mask) return false;
    begin += count;
  }
  return true;
}

}  // namespace

void coalesce(std::span<const std::uint64_t> addresses, std::uint32_t bytes_per_thread,
              const LineGeometry& geometry, CoalescedLines& out) {
  assert(bytes_per_thread >= 1);
  const std::uint32_t line_bytes = geometry.line_bytes;
  const std::uint32_t sector_bytes = geometry.sector_bytes;
  const std::size_t words_per_line = (line_bytes + 63) / 64;
  out.lines.clear();
  out.byte_bits.clear();
  std::size_t last = 0;  // most recently used entry: consecutive threads usually share it
  for (std::uint64_t address : addresses) {
    std::uint64_t begin = address;
    const std::uint64_t end = address + bytes_per_thread;
    while (begin < end) {
      const std::uint64_t line = begin / line_bytes;
      const auto offset = static_cast<std::uint32_t>(begin % line_bytes);
      const auto stop =
          static_cast<std::uint32_t>(std::min<std::uint64_t>(end - line * line_bytes, line_bytes));
      if (last >= out.lines.size() || out.lines[last].line != line) {
        auto it = std::find_if(out.lines.begin(), out.lines.end(),
                               [line](const LineAccess& a) { return a.line == line; });
        last = static_cast<std::size_t>(it - out.lines.begin());
        if (it == out.lines.end()) {
          out.lines.push_back(LineAccess{line, 0, 0});
          out.byte_bits.resize(out.byte_bits.size() + words_per_line, 0);
        }
      }
      LineAccess& access = out.lines[last];
      const std::uint32_t first_sector = offset / sector_bytes;
      const std::uint32_t last_sector = (stop - 1) / sector_bytes;
      access.sector_mask |=
          static_cast<std::uint32_t>(low_bits(last_sector - first_sector + 1) << first_sector);
      set_bits(&out.byte_bits[last * words_per_line], offset, stop);
      begin = line * line_bytes + stop;
    }
  }
  for (std::size_t i = 0; i < out.lines.size(); ++i) {
    LineAccess& access = out.lines[i];
    const std::uint64_t* bits = &out.byte_bits[i * words_per_line];
    for (std::uint32_t s = 0; s < geometry.sectors_per_line(); ++s) {
      if ((access.sector_mask >> s & 1u) != 0 &&
          all_set(bits, s * sector_bytes, (s + 1) * sector_bytes)) {
        access.full_mask |= 1u << s;
      }
    }
  }
}

}  // namespace sassim::memsys
