#pragma once
// Where the encoded chunks of CTAs that were read but not yet replayed are kept: in
// memory while the bytes held stay within a budget, beyond it in a spool file
// (traces/spool_file.h). A chunk is put once and taken (or released) once, so memory
// and disk follow the CTAs in flight, not the length of the trace. One store serves
// every kernel of a run. SMs ticking on different host threads take and release
// chunks at once: put, take and release lock. Which entry or spool offset holds a chunk
// may then depend on thread timing; whether it is spooled and its bytes do not.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "traces/spool_file.h"

namespace sassim::traces {

inline constexpr std::uint64_t kDefaultTraceMemoryBudgetBytes = std::uint64_t{64} << 20;

struct TraceStoreOptions {
  std::uint64_t memory_budget_bytes = kDefaultTraceMemoryBudgetBytes;
  std::filesystem::path spool_dir;  // empty: $TMPDIR, else /tmp
  // The defaults, with SASSIM_TRACE_MEMORY_BUDGET (bytes) overriding the budget.
  static TraceStoreOptions from_environment();
};

// A chunk held by a store.
struct ChunkRef {
  std::uint64_t where = 0;  // index of the in-memory chunk, or offset in the spool
  std::uint32_t bytes = 0;
  bool spooled = false;
};

class TraceStore {
 public:
  explicit TraceStore(TraceStoreOptions options = {});

  ChunkRef put(std::vector<std::byte> bytes);
  // Moves the chunk's bytes into `out` and forgets the chunk.
  void take(const ChunkRef& chunk, std::vector<std::byte>& out);
  void release(const ChunkRef& chunk);

  std::uint64_t memory_bytes() const { return memory_bytes_; }
  std::uint64_t spool_file_bytes() const { return spool_.file_bytes(); }
  std::uint64_t spool_used_bytes() const { return spool_.used_bytes(); }
  std::uint64_t chunks_spooled() const { return chunks_spooled_; }  // ever written to the spool

 private:
  TraceStoreOptions options_;
  std::mutex mutex_;
  std::vector<std::vector<std::byte>> held_;  // in-memory chunks; empty: a free entry
  std::vector<std::uint64_t> free_held_;
  std::uint64_t memory_bytes_ = 0;
  std::uint64_t chunks_spooled_ = 0;
  SpoolFile spool_;
};

// A store with TraceStoreOptions::from_environment().
std::shared_ptr<TraceStore> default_trace_store();

}  // namespace sassim::traces
