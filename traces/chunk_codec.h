#pragma once
// The compact encoding of a warp's decoded instructions in chunks of at most
// kChunkBytes (an instruction whose addresses alone exceed that gets a chunk of its own).
// Each instruction is a flag byte, then only what differs from the prediction: the
// static index when it is not the previous one plus 1, the active mask when it changed,
// and the addresses as base + stride when they are uniform (most are), else as deltas.
// A chunk decodes on its own: the predictions start afresh in each.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "isa/instruction.h"

namespace sassim::traces {

inline constexpr std::size_t kChunkBytes = 4096;

class ChunkEncoder {
 public:
  // Appends one instruction, unless the chunk already holds one and would grow past
  // kChunkBytes: then it returns false and appends nothing.
  bool add(std::uint32_t static_index, std::uint32_t active_mask,
           std::span<const std::uint64_t> addresses);
  const std::vector<std::byte>& bytes() const { return bytes_; }
  bool empty() const { return bytes_.empty(); }
  void clear();

 private:
  std::vector<std::byte> bytes_;
  std::vector<std::byte> scratch_;
  std::uint32_t prev_index_ = ~std::uint32_t{0};
  std::uint32_t prev_mask_ = 0;
  std::uint64_t prev_base_ = 0;
};

class ChunkDecoder {
 public:
  ChunkDecoder() = default;
  explicit ChunkDecoder(std::span<const std::byte> bytes) : bytes_(bytes) {}
  bool done() const { return at_ == bytes_.size(); }
  // Decodes the next instruction: its static index, mask and addr_count into `inst`
  // (addr_begin untouched), its addresses appended to `addresses`. Throws
  // sassim::Error on bytes no encoder wrote.
  void next(isa::WarpInst& inst, std::vector<std::uint64_t>& addresses);

 private:
  std::uint64_t varint();
  std::span<const std::byte> bytes_;
  std::size_t at_ = 0;
  std::uint32_t prev_index_ = ~std::uint32_t{0};
  std::uint32_t prev_mask_ = 0;
  std::uint64_t prev_base_ = 0;
};

}  // namespace sassim::traces
