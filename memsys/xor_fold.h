#pragma once
// The XOR-fold index shared by the L2's slice hash ("xor", address_map.cc), its spread of
// a slice's lines over the slice's channels (AddressMap::channel_slot) and its set index
// (SectorCache, l2.set_index = "xor"): x's place among n is r = x % n moved by h, the XOR
// of the `bits`-bit fields of x / n, to r XOR h when n is a power of two (with bits =
// log2 n: the classic fold of every field of x) and to (r + h) % n otherwise. Each aligned
// group of n consecutive x still covers all n places once, while values a multiple of n
// apart spread over them.
#include <bit>
#include <cstdint>

namespace sassim::memsys {

// n > 0, bits >= 1 (ceil(log2 n) for the uses above; a power of two n needs bits =
// log2 n so that h < n).
inline std::uint64_t xor_fold_index(std::uint64_t x, std::uint64_t n, std::uint32_t bits) {
  std::uint64_t rest = x / n;
  std::uint64_t folded = 0;
  if (bits == 1) {
    folded = static_cast<std::uint64_t>(std::popcount(rest) & 1);
  } else {
    const std::uint64_t field = (std::uint64_t{1} << bits) - 1;
    for (; rest != 0; rest >>= bits) folded ^= rest & field;
  }
  const std::uint64_t r = x % n;
  return std::has_single_bit(n) ? (r ^ folded) : (r + folded) % n;
}

// ceil(log2 n), at least 1: the field width xor_fold_index takes for n places.
inline std::uint32_t xor_fold_bits(std::uint64_t n) {
  return n <= 2 ? 1 : static_cast<std::uint32_t>(std::bit_width(n - 1));
}

}  // namespace sassim::memsys
