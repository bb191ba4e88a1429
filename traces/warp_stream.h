#pragma once
// A warp's instruction stream as encoded chunks in a TraceStore (WarpStream), the
// writer that fills one while a CTA is read (WarpStreamWriter), and the bounded window
// through which the timing model reads it (WarpWindow): the window decodes ahead as it
// is asked for later instructions and forgets those before the position it is told,
// so a warp holds one chunk's bytes and a few decoded instructions at a time.
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "isa/instruction.h"
#include "traces/chunk_codec.h"
#include "traces/trace_store.h"

namespace sassim::traces {

class WarpStream {
 public:
  WarpStream() = default;
  WarpStream(std::shared_ptr<TraceStore> store, std::uint32_t warp_in_cta)
      : store_(std::move(store)), warp_in_cta_(warp_in_cta) {}
  ~WarpStream() { release(); }
  WarpStream(WarpStream&& other) noexcept { *this = std::move(other); }
  WarpStream& operator=(WarpStream&& other) noexcept;

  std::uint32_t warp_in_cta() const { return warp_in_cta_; }
  std::uint32_t size() const { return size_; }  // instructions
  bool empty() const { return size_ == 0; }

 private:
  friend class WarpStreamWriter;
  friend class WarpWindow;
  void release();

  std::shared_ptr<TraceStore> store_;
  std::vector<ChunkRef> chunks_;
  std::size_t taken_ = 0;  // chunks already taken by a window
  std::uint32_t warp_in_cta_ = 0;
  std::uint32_t size_ = 0;
};

class WarpStreamWriter {
 public:
  WarpStreamWriter(std::shared_ptr<TraceStore> store, std::uint32_t warp_in_cta)
      : stream_(std::move(store), warp_in_cta) {}
  void add(std::uint32_t static_index, std::uint32_t active_mask,
           std::span<const std::uint64_t> addresses);
  WarpStream finish();

 private:
  void flush();
  WarpStream stream_;
  ChunkEncoder encoder_;
};

class WarpWindow {
 public:
  WarpWindow() = default;
  explicit WarpWindow(WarpStream stream) : stream_(std::move(stream)) {}

  std::uint32_t size() const { return stream_.size(); }
  // Instruction i (first() <= i < size()), decoding up to it. The reference stays valid
  // until the window decodes further or forgets it.
  const isa::WarpInst& inst(std::uint32_t i) {
    if (i >= end_) decode_through(i);
    return ring_[i & mask_];
  }
  // Instruction i of those already decoded (first() <= i < decoded_end()).
  const isa::WarpInst& decoded(std::uint32_t i) const { return ring_[i & mask_]; }
  std::uint32_t first() const { return first_; }
  std::uint32_t decoded_end() const { return end_; }
  // The addresses of a decoded instruction not yet forgotten; valid until the window
  // decodes further or forgets it.
  std::span<const std::uint64_t> addresses(const isa::WarpInst& wi) const {
    return {pool_.data() + static_cast<std::uint32_t>(wi.addr_begin - pool_base_), wi.addr_count};
  }
  // Forgets the instructions before i; they are not asked for again.
  void forget_before(std::uint32_t i);

 private:
  void decode_through(std::uint32_t i);
  void grow_ring();

  WarpStream stream_;
  std::vector<std::byte> chunk_;  // bytes of the chunk being decoded
  ChunkDecoder decoder_;
  std::vector<isa::WarpInst> ring_;  // by index & mask_; its addr_begin: absolute (mod 2^32)
  std::uint32_t mask_ = 0;
  std::uint32_t first_ = 0, end_ = 0;  // the decoded instructions held
  std::vector<std::uint64_t> pool_;    // their addresses; pool_[0] is address pool_base_
  std::uint32_t pool_base_ = 0;        // absolute index (mod 2^32) of pool_[0]
};

}  // namespace sassim::traces
