#pragma once
// The instruction stream buffer of a sub-core (Jouppi, ISCA 1990; Huerta et al.,
// arXiv:2503.20481, Section 5.2, for NVIDIA's front end): a FIFO of the lines that
// follow the last miss of the sub-core's first instruction cache. A miss restarts it
// at the next line; it requests one line per cycle until it holds `entries` lines,
// and each line taken from it (moved into the cache) frees an entry that requests
// one more. Event-driven like the caches: an entry keeps the cycle its line arrives,
// computed by the caller when the line is requested.
#include <cstdint>
#include <optional>
#include <vector>

namespace sassim::sim {

class StreamBuffer {
 public:
  StreamBuffer() = default;
  explicit StreamBuffer(std::uint32_t entries) : lines_(entries) {}

  bool present() const { return !lines_.empty(); }
  // The arrival cycle of `line` if the buffer holds it; the line and the lines ahead
  // of it leave the buffer.
  std::optional<std::uint64_t> take(std::uint64_t line);
  // A miss of `line` at `cycle`: the buffer is emptied and streams from line + 1, the
  // first request in the next cycle.
  void restart(std::uint64_t line, std::uint64_t cycle);
  // True while an entry is free (the caller then requests next_line()).
  bool wants_line() const { return count_ < lines_.size(); }
  // The line to request next and the cycle of the request, at `cycle` or later (one
  // request per cycle).
  std::uint64_t next_line() const { return next_line_; }
  std::uint64_t request_cycle(std::uint64_t cycle) const;
  // Records the request of next_line() at `request_cycle`, its data arriving at `ready`.
  void requested(std::uint64_t request_cycle, std::uint64_t ready);

 private:
  struct Entry {
    std::uint64_t line = 0;
    std::uint64_t ready = 0;
  };
  std::vector<Entry> lines_;  // a ring: count_ entries from head_, oldest first
  std::uint32_t head_ = 0, count_ = 0;
  std::uint64_t next_line_ = 0;
  std::uint64_t next_request_ = 0;  // earliest cycle of the next request
};

}  // namespace sassim::sim
