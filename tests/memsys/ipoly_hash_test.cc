// The "ipoly" slice hash: exact values, the permutation property and the spread of
// strided streams over the slice counts of the presets.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <set>
#include <vector>

#include "memsys/address_map.h"

namespace sassim::memsys {
namespace {

TEST(IpolyHash, PowerOfTwoCountsReduceTheLineModuloThePolynomial) {
  AddressMap map(32, 1, "ipoly");  // P = x^5 + x^2 + 1 (0x25)
  for (std::uint64_t line = 0; line < 32; ++line) EXPECT_EQ(map.slice_of(line), line);
  EXPECT_EQ(map.slice_of(32), 0x05u);      // x^5 = x^2 + 1
  EXPECT_EQ(map.slice_of(64), 0x0Au);      // x^6 = x^3 + x
  EXPECT_EQ(map.slice_of(32 + 3), 0x06u);  // (x^2 + 1) + (x + 1)
  EXPECT_EQ(map.slice_of(1024), 0x11u);    // x^10 = (x^2 + 1)^2 = x^4 + 1
}

TEST(IpolyHash, OddFactorPicksAGroupAndTheQuotientItsSlice) {
  AddressMap map(80, 1, "ipoly");               // 5 groups of 16: P = x^4 + x + 1 (0x13)
  EXPECT_EQ(map.slice_of(16), 1u * 16 + 0x3u);  // 16 % 5 = 1; 16 / 5 = 3
  EXPECT_EQ(map.slice_of(80), 0u * 16 + 0x3u);  // 80 / 5 = 16: x^4 = x + 1
  EXPECT_EQ(map.slice_of(5), 1u);
  EXPECT_EQ(map.slice_of(7), 2u * 16 + 1);
}

TEST(IpolyHash, EveryAlignedGroupOfSlicesLinesCoversEverySliceOnce) {
  for (std::uint32_t count : {1u, 2u, 16u, 32u, 64u, 80u, 96u, 160u, 1024u}) {
    AddressMap map(count, 1, "ipoly");
    for (std::uint64_t group : {0ull, 1ull, 7ull, 12345ull, 0x3fffffffull}) {
      std::set<std::uint32_t> slices;
      for (std::uint64_t r = 0; r < count; ++r) slices.insert(map.slice_of(group * count + r));
      EXPECT_EQ(slices.size(), count) << count << " slices, group " << group;
      EXPECT_LT(*slices.rbegin(), count);
    }
  }
}

// Lines `stride` apart from an aligned base, `mean` per slice: the busiest slice
// against the mean.
double imbalance(const AddressMap& map, std::uint64_t stride, std::uint64_t mean = 16) {
  std::vector<std::uint64_t> per_slice(map.slices(), 0);
  const std::uint64_t n = std::uint64_t{map.slices()} * mean;
  const std::uint64_t base = std::uint64_t{map.slices()} << 24;
  for (std::uint64_t i = 0; i < n; ++i) ++per_slice[map.slice_of(base + i * stride)];
  std::uint64_t most = 0;
  for (std::uint64_t count : per_slice) most = std::max(most, count);
  return static_cast<double>(most) / static_cast<double>(mean);
}

TEST(IpolyHash, PowerOfTwoStridesSpreadEvenlyWhereLinearCollapses) {
  for (std::uint32_t count : {32u, 80u, 96u, 160u}) {
    AddressMap ipoly(count, 1, "ipoly");
    AddressMap linear(count, 1, "linear");
    for (std::uint64_t stride = 1; stride <= 4096; stride *= 2) {
      EXPECT_EQ(imbalance(ipoly, stride), 1.0) << count << " slices, stride " << stride;
    }
    EXPECT_GE(imbalance(linear, 32), 2.0) << count;  // linear leaves slices idle
  }
}

TEST(IpolyHash, StridesCoprimeToTheOddFactorStayWithinAThirdOfEven) {
  for (std::uint32_t count : {80u, 96u, 160u}) {
    AddressMap map(count, 1, "ipoly");
    const std::uint32_t odd = count >> std::countr_zero(count);
    for (std::uint64_t stride : {3ull, 5ull, 6ull, 7ull, 9ull, 11ull, 12ull, 13ull, 24ull, 48ull}) {
      if (stride % odd == 0) continue;
      EXPECT_LE(imbalance(map, stride, 64), 1.3) << count << " slices, stride " << stride;
    }
  }
}

TEST(IpolyHash, MultiplesOfTheOddFactorUseOneGroupOfSlices) {
  AddressMap map(80, 1, "ipoly");
  EXPECT_EQ(imbalance(map, 5), 5.0);  // 16 of 80 slices, evenly
  EXPECT_EQ(imbalance(map, 80), 5.0);
}

}  // namespace
}  // namespace sassim::memsys
