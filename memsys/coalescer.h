#pragma once
// The coalescer: a warp's per-thread addresses become the cache lines it touches,
// each with the sectors it reads or writes. Pure: the result depends only on the
// inputs, and the caller's buffers are reused so no call allocates once warm.
#include <cstdint>
#include <span>
#include <vector>

namespace sassim::memsys {

struct LineGeometry {
  std::uint32_t line_bytes = 128;
  std::uint32_t sector_bytes = 32;  // line_bytes / sector_bytes <= 32
  std::uint32_t sectors_per_line() const { return line_bytes / sector_bytes; }
};

struct LineAccess {
  std::uint64_t line = 0;         // byte address / line_bytes
  std::uint32_t sector_mask = 0;  // sectors with at least one byte accessed
  std::uint32_t full_mask = 0;    // sectors whose every byte is accessed (a full-sector write)
};

// The caller-owned result; keep one per user and pass it to every call.
struct CoalescedLines {
  std::vector<LineAccess> lines;         // in order of first appearance
  std::vector<std::uint64_t> byte_bits;  // scratch: accessed bytes, line_bytes bits per line
};

// Fills out.lines with the lines touched by the accesses [a, a + bytes_per_thread) of
// each address, in order of first appearance (a thread straddling a boundary adds its
// lower line first). bytes_per_thread >= 1.
void coalesce(std::span<const std::uint64_t> addresses, std::uint32_t bytes_per_thread,
              const LineGeometry& geometry, CoalescedLines& out);

}  // namespace sassim::memsys
