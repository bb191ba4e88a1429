#include "traces/chunk_codec.h"

#include "ground/error.h"

namespace sassim::traces {
namespace {

// Flag byte: whether the index and mask are predicted, and how addresses follow.
constexpr unsigned kNewIndex = 1, kNewMask = 2;
constexpr unsigned kAddrShift = 2;
enum AddrForm : unsigned { kNoAddresses = 0, kStrided = 1, kDeltas = 2 };
constexpr std::uint64_t kMaxAddresses = std::uint64_t{1} << 32;  // addr_count is 32 bits

std::uint64_t zigzag(std::uint64_t delta) {
  const auto s = static_cast<std::int64_t>(delta);
  return (static_cast<std::uint64_t>(s) << 1) ^ static_cast<std::uint64_t>(s >> 63);
}

std::uint64_t unzigzag(std::uint64_t z) {
  return (z >> 1) ^ (~(z & 1) + 1);
}

void put_varint(std::vector<std::byte>& out, std::uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<std::byte>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<std::byte>(v));
}

bool uniform_stride(std::span<const std::uint64_t> a) {
  const std::uint64_t stride = a[1] - a[0];
  for (std::size_t i = 2; i < a.size(); ++i) {
    if (a[i] - a[i - 1] != stride) return false;
  }
  return true;
}

}  // namespace

bool ChunkEncoder::add(std::uint32_t static_index, std::uint32_t active_mask,
                       std::span<const std::uint64_t> addresses) {
  std::vector<std::byte>& s = scratch_;
  s.clear();
  unsigned flags = 0;
  s.push_back(std::byte{0});
  if (static_index != prev_index_ + 1) {
    flags |= kNewIndex;
    put_varint(s, zigzag(std::uint64_t{static_index} - (prev_index_ + std::uint64_t{1})));
  }
  if (active_mask != prev_mask_) {
    flags |= kNewMask;
    put_varint(s, active_mask);
  }
  if (!addresses.empty()) {
    const bool strided = addresses.size() == 1 || uniform_stride(addresses);
    flags |= (strided ? kStrided : kDeltas) << kAddrShift;
    put_varint(s, addresses.size());
    put_varint(s, zigzag(addresses[0] - prev_base_));
    if (strided) {
      if (addresses.size() > 1) put_varint(s, zigzag(addresses[1] - addresses[0]));
    } else {
      for (std::size_t i = 1; i < addresses.size(); ++i) {
        put_varint(s, zigzag(addresses[i] - addresses[i - 1]));
      }
    }
  }
  s[0] = static_cast<std::byte>(flags);
  if (!bytes_.empty() && bytes_.size() + s.size() > kChunkBytes) return false;
  bytes_.insert(bytes_.end(), s.begin(), s.end());
  prev_index_ = static_index;
  prev_mask_ = active_mask;
  if (!addresses.empty()) prev_base_ = addresses[0];
  return true;
}

void ChunkEncoder::clear() {
  bytes_.clear();
  prev_index_ = ~std::uint32_t{0};
  prev_mask_ = 0;
  prev_base_ = 0;
}

std::uint64_t ChunkDecoder::varint() {
  std::uint64_t v = 0;
  for (unsigned shift = 0; shift < 64; shift += 7) {
    if (at_ == bytes_.size()) break;
    const auto b = static_cast<std::uint8_t>(bytes_[at_++]);
    v |= std::uint64_t{b & 0x7fU} << shift;
    if ((b & 0x80U) == 0) return v;
  }
  throw Error("trace chunk: a number runs past the end of the chunk");
}

void ChunkDecoder::next(isa::WarpInst& inst, std::vector<std::uint64_t>& addresses) {
  if (done()) throw Error("trace chunk: read past its last instruction");
  const auto flags = static_cast<unsigned>(bytes_[at_++]);
  std::uint32_t index = prev_index_ + 1;
  if ((flags & kNewIndex) != 0) index = static_cast<std::uint32_t>(index + unzigzag(varint()));
  if ((flags & kNewMask) != 0) prev_mask_ = static_cast<std::uint32_t>(varint());
  prev_index_ = index;
  inst.static_index = index;
  inst.active_mask = prev_mask_;
  inst.addr_count = 0;
  const unsigned form = flags >> kAddrShift;
  if (form == kNoAddresses) return;
  const std::uint64_t count = varint();
  if (count == 0 || count >= kMaxAddresses || form > kDeltas) {
    throw Error("trace chunk: an instruction's address record is malformed");
  }
  std::uint64_t a = prev_base_ + unzigzag(varint());
  prev_base_ = a;
  addresses.push_back(a);
  const std::uint64_t stride = form == kStrided && count > 1 ? unzigzag(varint()) : 0;
  for (std::uint64_t i = 1; i < count; ++i) {
    a += form == kStrided ? stride : unzigzag(varint());
    addresses.push_back(a);
  }
  inst.addr_count = static_cast<std::uint32_t>(count);
}

}  // namespace sassim::traces
