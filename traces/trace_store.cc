#include "traces/trace_store.h"

#include <cstdlib>

#include <fmt/format.h>

#include "ground/error.h"
#include "traces/tokens.h"

namespace sassim::traces {

TraceStoreOptions TraceStoreOptions::from_environment() {
  TraceStoreOptions options;
  if (const char* budget = std::getenv("SASSIM_TRACE_MEMORY_BUDGET")) {
    const std::optional<std::uint64_t> bytes = parse_dec_u64(budget);
    if (!bytes) {
      throw Error(
          fmt::format("SASSIM_TRACE_MEMORY_BUDGET = '{}': expected a number of bytes", budget));
    }
    options.memory_budget_bytes = *bytes;
  }
  return options;
}

TraceStore::TraceStore(TraceStoreOptions options)
    : options_(std::move(options)), spool_(options_.spool_dir) {}

ChunkRef TraceStore::put(std::vector<std::byte> bytes) {
  const std::lock_guard lock(mutex_);
  ChunkRef ref;
  ref.bytes = static_cast<std::uint32_t>(bytes.size());
  if (memory_bytes_ + bytes.size() > options_.memory_budget_bytes) {
    ref.spooled = true;
    ref.where = spool_.write(bytes);
    ++chunks_spooled_;
    return ref;
  }
  memory_bytes_ += bytes.size();
  if (free_held_.empty()) {
    ref.where = held_.size();
    held_.push_back(std::move(bytes));
  } else {
    ref.where = free_held_.back();
    free_held_.pop_back();
    held_[ref.where] = std::move(bytes);
  }
  return ref;
}

void TraceStore::take(const ChunkRef& chunk, std::vector<std::byte>& out) {
  const std::lock_guard lock(mutex_);
  if (chunk.spooled) {
    spool_.take(chunk.where, chunk.bytes, out);
    return;
  }
  out = std::move(held_[chunk.where]);
  held_[chunk.where] = {};
  memory_bytes_ -= chunk.bytes;
  free_held_.push_back(chunk.where);
}

void TraceStore::release(const ChunkRef& chunk) {
  const std::lock_guard lock(mutex_);
  if (chunk.spooled) {
    spool_.free(chunk.where, chunk.bytes);
    return;
  }
  held_[chunk.where] = {};
  memory_bytes_ -= chunk.bytes;
  free_held_.push_back(chunk.where);
}

std::shared_ptr<TraceStore> default_trace_store() {
  return std::make_shared<TraceStore>(TraceStoreOptions::from_environment());
}

}  // namespace sassim::traces
