#include "memsys/address_map.h"

#include <array>
#include <bit>
#include <iterator>

#include "configs/choices.h"
#include "ground/error.h"
#include "memsys/xor_fold.h"

namespace sassim::memsys {
namespace {

std::uint32_t linear_hash(std::uint64_t line, std::uint32_t slices, std::uint32_t /*bits*/) {
  return static_cast<std::uint32_t>(line % slices);
}

// The XOR-fold of memsys/xor_fold.h over the slices (one slice: slice 0).
std::uint32_t xor_hash(std::uint64_t line, std::uint32_t slices, std::uint32_t bits) {
  if (bits == 0) return 0;
  return static_cast<std::uint32_t>(xor_fold_index(line, slices, bits));
}

// "ipoly": slices = 2^k x m with m odd. The line's quotient q = line / m, read as a
// polynomial over GF(2), is reduced modulo a primitive polynomial P of degree k (Rau,
// "Pseudo-randomly interleaved memory", ISCA 1991; the slice hash GPGPU-Sim calls
// IPOLY, whose degree-5 and degree-6 polynomials, 37 and 67, are the ones used here);
// the remainder r = line % m picks one of m groups of 2^k slices:
// slice = r x 2^k + (q mod P). An aligned group of `slices` consecutive lines covers
// every slice once (r covers the m groups, q an aligned block of 2^k), and lines 2^j
// apart spread evenly: 2^j is invertible modulo m, and multiplying by x modulo P.
constexpr std::array<std::uint32_t, 11> kPrimitive = {
    0x1, 0x3, 0x7, 0xB, 0x13, 0x25, 0x43, 0x83, 0x11D, 0x211, 0x409};  // by degree

constexpr std::uint32_t poly_mod(std::uint64_t a, std::uint32_t degree) {
  if (degree == 0) return 0;
  for (std::uint32_t bit = 63; bit >= degree; --bit) {
    if ((a >> bit) & 1) a ^= std::uint64_t{kPrimitive[degree]} << (bit - degree);
  }
  return static_cast<std::uint32_t>(a);
}

// The reduction is linear, so line mod P is the XOR of the remainders of its eight
// bytes (in place): table[degree][byte position][byte value].
using IpolyTable = std::array<std::array<std::array<std::uint16_t, 256>, 8>, kPrimitive.size()>;
constexpr IpolyTable make_ipoly_table() {
  IpolyTable t{};
  for (std::uint32_t degree = 0; degree < kPrimitive.size(); ++degree) {
    for (std::uint32_t pos = 0; pos < 8; ++pos) {
      for (std::uint64_t v = 0; v < 256; ++v)
        t[degree][pos][v] = static_cast<std::uint16_t>(poly_mod(v << (8 * pos), degree));
    }
  }
  return t;
}
constexpr IpolyTable kIpolyTable = make_ipoly_table();

std::uint32_t ipoly_hash(std::uint64_t line, std::uint32_t slices, std::uint32_t /*bits*/) {
  const auto k = static_cast<std::uint32_t>(std::countr_zero(slices));
  const std::uint32_t odd = slices >> k;
  const std::uint64_t q = line / odd;
  const auto& table = kIpolyTable[k];
  std::uint32_t low = 0;
  for (std::uint32_t pos = 0; pos < 8; ++pos) low ^= table[pos][(q >> (8 * pos)) & 0xff];
  return static_cast<std::uint32_t>(line % odd) * (1u << k) + low;
}

// Adding a hash adds a row here and its name to config::kAddressHashes, in the same order.
constexpr AddressMap::SliceHash kHashes[] = {
    &linear_hash,  // linear
    &xor_hash,     // xor
    &ipoly_hash,   // ipoly
};
static_assert(std::size(kHashes) == config::kAddressHashes.size());

}  // namespace

AddressMap::AddressMap(std::uint32_t slices, std::uint32_t channels, std::string_view hash_name)
    : slices_(slices),
      channels_(channels),
      bits_(static_cast<std::uint32_t>(std::bit_width(slices - 1))),
      hash_(nullptr) {
  if (slices == 0 || channels == 0)
    throw Error("address map: slices and channels must be positive");
  if (auto index = config::choice_index(config::kAddressHashes, hash_name)) {
    hash_ = kHashes[*index];
  } else {
    throw Error(*config::choice_problem("l2.address_hash", hash_name, config::kAddressHashes));
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
