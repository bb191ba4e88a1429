#include "memsys/address_map.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "ground/error.h"
#include "memsys/noc_routes.h"

namespace sassim::memsys {
namespace {

TEST(AddressMap, LinearIsLineModuloSlices) {
  AddressMap map(4, 2, "linear");
  for (std::uint64_t line = 0; line < 16; ++line) EXPECT_EQ(map.slice_of(line), line % 4);
  EXPECT_EQ(map.local_line(13), 3u);
}

TEST(AddressMap, XorFoldsHigherFieldsIntoTheSlice) {
  AddressMap map(4, 4, "xor");  // 2-bit fields
  EXPECT_EQ(map.slice_of(0b0110), 0b11u);
  EXPECT_EQ(map.slice_of(0b110110), 0b11u ^ 0b01u ^ 0b10u);
  // Lines 4 apart all hit slice 0 with "linear"; "xor" spreads them over every slice.
  std::set<std::uint32_t> slices;
  for (std::uint64_t k = 0; k < 4; ++k) slices.insert(map.slice_of(k * 4));
  EXPECT_EQ(slices.size(), 4u);
}

TEST(AddressMap, XorIsAPermutationWithinEachGroupOfSlices) {
  for (std::uint32_t count : {8u, 12u, 80u, 96u, 160u}) {
    AddressMap map(count, 1, "xor");
    for (std::uint64_t group = 0; group < 300; ++group) {
      std::set<std::uint32_t> slices;
      for (std::uint64_t r = 0; r < count; ++r) slices.insert(map.slice_of(group * count + r));
      EXPECT_EQ(slices.size(), count) << count << " slices, group " << group;
    }
  }
}

TEST(AddressMap, XorWithOddCountsRotatesGroups) {
  AddressMap map(12, 1, "xor");  // b = 4 bits; group q = 0x35 folds to 5 ^ 3 = 6
  EXPECT_EQ(map.slice_of(0x35 * 12 + 7), (7u + 6u) % 12);
  // Lines 12 apart (same place, consecutive groups) land on different slices.
  std::set<std::uint32_t> slices;
  for (std::uint64_t q = 0; q < 12; ++q) slices.insert(map.slice_of(q * 12));
  EXPECT_GT(slices.size(), 6u);
}

TEST(AddressMap, FewerChannelsThanSlicesShareChannels) {
  AddressMap map(4, 2, "linear");
  for (std::uint32_t j = 0; j < 4; ++j) {
    ASSERT_EQ(map.channels_of_slice(j).size(), 1u);
    EXPECT_EQ(map.channels_of_slice(j)[0], j % 2);
  }
}

TEST(AddressMap, MoreChannelsThanSlicesSpreadEachSlice) {
  AddressMap map(2, 5, "linear");
  ASSERT_EQ(map.channels_of_slice(0).size(), 3u);  // 0, 2, 4
  ASSERT_EQ(map.channels_of_slice(1).size(), 2u);  // 1, 3
  std::set<std::uint32_t> used;
  for (std::uint64_t line = 0; line < 60; ++line) used.insert(map.channel_of(line));
  EXPECT_EQ(used.size(), 5u);
  // Slice 0's lines 0, 2, 4 (local 0, 1, 2) go to channels 0, 2, 4.
  EXPECT_EQ(map.channel_of(0), 0u);
  EXPECT_EQ(map.channel_of(2), 2u);
  EXPECT_EQ(map.channel_of(4), 4u);
  // Local 3 starts the next group of three, rotated by its fold (1): channel 2.
  EXPECT_EQ(map.channel_of(6), 2u);
  EXPECT_EQ(map.channel_of(8), 4u);
  EXPECT_EQ(map.channel_of(10), 0u);
}

TEST(AddressMap, EachGroupOfLocalLinesCoversTheSlicesChannelsOnce) {
  for (auto [slices, channels] : {std::pair{96u, 192u}, {80u, 160u}, {2u, 5u}, {4u, 12u}}) {
    AddressMap map(slices, channels, "xor");
    for (std::uint64_t group = 0; group < 200; ++group) {
      std::set<std::uint32_t> used;
      const std::uint64_t n = map.channels_of_slice(0).size();
      for (std::uint64_t local = group * n; local < (group + 1) * n; ++local)
        used.insert(map.channel_of(0, local * slices));
      EXPECT_EQ(used.size(), n) << slices << " slices, " << channels << " channels";
    }
  }
}

TEST(AddressMap, WeightRowsReadSideBySideLoadEveryChannelEvenly) {
  // A GEMV's warps read 28,672 rows of 8 KiB (64 lines) at the same offset, 8 lines each,
  // on the h200's 96 slices and 192 channels. Picking a slice's channel by local % 2 put
  // 1.5 times the mean on the busiest channel.
  AddressMap map(96, 192, "xor");
  std::vector<std::uint64_t> per_channel(192, 0);
  for (std::uint64_t row = 0; row < 28672; ++row) {
    for (std::uint64_t i = 0; i < 8; ++i) ++per_channel[map.channel_of(row * 64 + 20 + i)];
  }
  const double mean = 28672.0 * 8 / 192;
  for (std::uint32_t c = 0; c < 192; ++c) {
    EXPECT_LT(per_channel[c], mean * 1.01) << "channel " << c;
    EXPECT_GT(per_channel[c], mean * 0.99) << "channel " << c;
  }
}

TEST(AddressMap, UnknownHashNamesTheField) {
  try {
    AddressMap map(4, 2, "modulo");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("l2.address_hash"), std::string::npos) << message;
    EXPECT_NE(message.find("modulo"), std::string::npos) << message;
  }
}

TEST(NocRoutes, CrossbarLinksEverySmToEverySliceInOneHop) {
  const NocRoutes routes = NocRoutes::crossbar(3, 5);
  for (std::uint32_t sm = 0; sm < 3; ++sm) {
    for (std::uint32_t j = 0; j < 5; ++j) EXPECT_EQ(routes.hops(sm, j), 1u);
  }
}

}  // namespace
}  // namespace sassim::memsys
