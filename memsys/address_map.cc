#include "memsys/address_map.h"

#include <array>
#include <bit>

#include <fmt/format.h>

#include "isa/error.h"

namespace sassim::memsys {
namespace {

std::uint32_t linear_hash(std::uint64_t line, std::uint32_t slices, std::uint32_t /*bits*/) {
  return static_cast<std::uint32_t>(line % slices);
}

// r = line % slices is moved within its group of `slices` consecutive lines by
// h = XOR of the b-bit fields of line / slices: r XOR h with a power-of-two count
// (the XOR-fold of every field of the line), (r + h) % slices otherwise. Either way
// each group of consecutive lines covers every slice exactly once.
std::uint32_t xor_hash(std::uint64_t line, std::uint32_t slices, std::uint32_t bits) {
  if (bits == 0) return 0;
  const std::uint64_t field = (std::uint64_t{1} << bits) - 1;
  std::uint64_t folded = 0;
  for (std::uint64_t rest = line / slices; rest != 0; rest >>= bits) folded ^= rest & field;
  const std::uint64_t r = line % slices;
  if ((slices & (slices - 1)) == 0) return static_cast<std::uint32_t>(r ^ folded);
  return static_cast<std::uint32_t>((r + folded) % slices);
}

struct NamedHash {
  std::string_view name;
  AddressMap::SliceHash hash;
};
// Adding a hash adds a row.
constexpr std::array<NamedHash, 2> kHashes{{{"linear", &linear_hash}, {"xor", &xor_hash}}};

}  // namespace

std::string_view AddressMap::hash_names() {
  return "\"linear\", \"xor\"";
}

AddressMap::AddressMap(std::uint32_t slices, std::uint32_t channels, std::string_view hash_name)
    : slices_(slices),
      channels_(channels),
      bits_(static_cast<std::uint32_t>(std::bit_width(slices - 1))),
      hash_(nullptr) {
  if (slices == 0 || channels == 0)
    throw Error("address map: slices and channels must be positive");
  for (const NamedHash& h : kHashes) {
    if (h.name == hash_name) hash_ = h.hash;
  }
  if (hash_ == nullptr) {
    throw Error(
        fmt::format("l2.address_hash: unknown hash \"{}\" (known: {})", hash_name, hash_names()));
  }
  slice_channel_begin_.reserve(slices + 1);
  for (std::uint32_t j = 0; j < slices; ++j) {
    slice_channel_begin_.push_back(static_cast<std::uint32_t>(slice_channels_.size()));
    if (channels <= slices) {
      slice_channels_.push_back(j % channels);
    } else {
      for (std::uint32_t k = j; k < channels; k += slices) slice_channels_.push_back(k);
    }
  }
  slice_channel_begin_.push_back(static_cast<std::uint32_t>(slice_channels_.size()));
}

}  // namespace sassim::memsys
