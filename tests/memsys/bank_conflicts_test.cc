#include "memsys/bank_conflicts.h"

#include <gtest/gtest.h>

#include "ground/error.h"
#include "memsys_test_support.h"

namespace sassim::memsys {
namespace {

using testing::strided;

const SharedBankGeometry kBanks{32, 4};

// 32 threads of 4 bytes, arranged so that each of 32/n banks holds n distinct words.
std::vector<std::uint64_t> n_way(std::uint32_t n) {
  std::vector<std::uint64_t> out;
  const std::uint32_t group = 32 / n;
  for (std::uint32_t lane = 0; lane < 32; ++lane)
    out.push_back((lane % group) * 4 + (lane / group) * 128);
  return out;
}

TEST(BankConflicts, ConsecutiveWordsTakeOnePass) {
  EXPECT_EQ(shared_bank_passes(strided(0, 4), 0xffffffffu, 4, kBanks), 1u);
}

TEST(BankConflicts, NWayConflictCostsExactlyNPasses) {
  for (std::uint32_t n : {1u, 2u, 4u, 8u, 16u, 32u}) {
    EXPECT_EQ(shared_bank_passes(n_way(n), 0xffffffffu, 4, kBanks), n) << n << "-way";
  }
}

TEST(BankConflicts, EveryConflictDegreeFromOneTo32) {
  // Lanes 0..n-1 hit bank 0 with distinct words, the others a bank of their own.
  for (std::uint32_t n = 1; n <= 32; ++n) {
    std::vector<std::uint64_t> addresses;
    for (std::uint32_t lane = 0; lane < 32; ++lane)
      addresses.push_back(lane < n ? lane * 128 : lane * 4);
    EXPECT_EQ(shared_bank_passes(addresses, 0xffffffffu, 4, kBanks), n) << n << "-way";
  }
}

TEST(BankConflicts, BroadcastOfOneWordCostsOnePass) {
  EXPECT_EQ(shared_bank_passes(std::vector<std::uint64_t>(32, 0x40), 0xffffffffu, 4, kBanks), 1u);
}

TEST(BankConflicts, SameWordSharedWhileOtherWordsConflict) {
  // 16 lanes read word 0, 16 lanes read word 32 (same bank): two distinct words.
  std::vector<std::uint64_t> addresses;
  for (std::uint32_t lane = 0; lane < 32; ++lane) addresses.push_back(lane < 16 ? 0 : 128);
  EXPECT_EQ(shared_bank_passes(addresses, 0xffffffffu, 4, kBanks), 2u);
}

TEST(BankConflicts, SixtyFourBitAccessesRunAsTwoHalfWarps) {
  EXPECT_EQ(shared_bank_passes(strided(0, 8), 0xffffffffu, 8, kBanks), 2u);
  // Stride 16 bytes: each half-warp covers 256 bytes = 2 words per bank.
  EXPECT_EQ(shared_bank_passes(strided(0, 16), 0xffffffffu, 8, kBanks), 4u);
  // Only the first half-warp active: one phase.
  EXPECT_EQ(shared_bank_passes(strided(0, 8, 16), 0x0000ffffu, 8, kBanks), 1u);
}

TEST(BankConflicts, HundredTwentyEightBitAccessesRunAsFourQuarterWarps) {
  EXPECT_EQ(shared_bank_passes(strided(0, 16), 0xffffffffu, 16, kBanks), 4u);
  // Every lane at the same 16 bytes: a broadcast in each quarter.
  EXPECT_EQ(shared_bank_passes(std::vector<std::uint64_t>(32, 0), 0xffffffffu, 16, kBanks), 4u);
  // Stride 32 bytes: each quarter-warp's 8 lanes need two words in half the banks.
  EXPECT_EQ(shared_bank_passes(strided(0, 32), 0xffffffffu, 16, kBanks), 8u);
}

TEST(BankConflicts, PartialMaskUsesLanePositions) {
  // Lanes 0 and 31 active at conflicting words, 64-bit: different half-warps, no conflict.
  EXPECT_EQ(shared_bank_passes(std::vector<std::uint64_t>{0, 256}, 0x80000001u, 8, kBanks), 2u);
  // Same two lanes with 32-bit accesses: one phase, 2-way conflict in bank 0.
  EXPECT_EQ(shared_bank_passes(std::vector<std::uint64_t>{0, 128}, 0x80000001u, 4, kBanks), 2u);
  EXPECT_EQ(shared_bank_passes(std::vector<std::uint64_t>{}, 0u, 4, kBanks), 0u);
}

TEST(BankConflicts, RejectsOddWidths) {
  EXPECT_THROW(shared_bank_passes(strided(0, 4), 0xffffffffu, 3, kBanks), Error);
  EXPECT_THROW(shared_bank_passes(strided(0, 4), 0xffffffffu, 32, kBanks), Error);
}

}  // namespace
}  // namespace sassim::memsys
