#include "traces/warp_stream.h"

#include <algorithm>

#include <fmt/format.h>

#include "ground/error.h"

namespace sassim::traces {
namespace {
// Forgotten addresses are dropped from the front of the pool once they are this many
// and at least half of it (amortized constant work per address).
constexpr std::uint32_t kPoolCompactAddresses = 512;
constexpr std::uint32_t kInitialRing = 32;
}  // namespace

WarpStream& WarpStream::operator=(WarpStream&& other) noexcept {
  if (this == &other) return *this;
  release();
  store_ = std::move(other.store_);
  chunks_ = std::move(other.chunks_);
  taken_ = other.taken_;
  warp_in_cta_ = other.warp_in_cta_;
  size_ = other.size_;
  other.chunks_.clear();
  other.taken_ = 0;
  other.size_ = 0;
  return *this;
}

void WarpStream::release() {
  for (std::size_t i = taken_; i < chunks_.size(); ++i) store_->release(chunks_[i]);
  chunks_.clear();
  taken_ = 0;
}

void WarpStreamWriter::add(std::uint32_t static_index, std::uint32_t active_mask,
                           std::span<const std::uint64_t> addresses) {
  if (!encoder_.add(static_index, active_mask, addresses)) {
    flush();
    encoder_.add(static_index, active_mask, addresses);
  }
  ++stream_.size_;
}

void WarpStreamWriter::flush() {
  if (encoder_.empty()) return;
  const std::vector<std::byte>& bytes = encoder_.bytes();
  stream_.chunks_.push_back(
      stream_.store_->put(std::vector<std::byte>(bytes.begin(), bytes.end())));
  encoder_.clear();
}

WarpStream WarpStreamWriter::finish() {
  flush();
  return std::move(stream_);
}

void WarpWindow::grow_ring() {
  const std::uint32_t capacity = ring_.empty() ? kInitialRing : 2 * mask_ + 2;
  std::vector<isa::WarpInst> ring(capacity);
  for (std::uint32_t i = first_; i < end_; ++i) ring[i & (capacity - 1)] = ring_[i & mask_];
  ring_ = std::move(ring);
  mask_ = capacity - 1;
}

void WarpWindow::decode_through(std::uint32_t i) {
  while (end_ <= i) {
    if (end_ - first_ == ring_.size()) grow_ring();
    if (decoder_.done()) {
      if (stream_.taken_ == stream_.chunks_.size()) {
        throw Error(fmt::format("warp {}: instruction {} asked for, but it has {}",
                                stream_.warp_in_cta_, i, stream_.size_));
      }
      stream_.store_->take(stream_.chunks_[stream_.taken_++], chunk_);
      decoder_ = ChunkDecoder(chunk_);
    }
    isa::WarpInst& wi = ring_[end_ & mask_];
    wi.addr_begin = pool_base_ + static_cast<std::uint32_t>(pool_.size());
    decoder_.next(wi, pool_);
    ++end_;
  }
}

void WarpWindow::forget_before(std::uint32_t i) {
  if (i <= first_) return;
  first_ = std::min(i, end_);
  if (first_ == end_) {
    pool_base_ += static_cast<std::uint32_t>(pool_.size());
    pool_.clear();
    return;
  }
  const std::uint32_t drop = ring_[first_ & mask_].addr_begin - pool_base_;
  if (drop >= kPoolCompactAddresses && 2 * std::size_t{drop} >= pool_.size()) {
    pool_.erase(pool_.begin(), pool_.begin() + drop);
    pool_base_ += drop;
  }
}

}  // namespace sassim::traces
