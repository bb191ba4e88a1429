#include "isa/arch.h"

#include <gtest/gtest.h>

namespace sassim::isa {
namespace {

TEST(Arch, BinaryVersionMapsToEveryKnownArch) {
  EXPECT_EQ(arch_from_binary_version(60), Arch::kSm60);
  EXPECT_EQ(arch_from_binary_version(61), Arch::kSm61);
  EXPECT_EQ(arch_from_binary_version(70), Arch::kSm70);
  EXPECT_EQ(arch_from_binary_version(75), Arch::kSm75);
  EXPECT_EQ(arch_from_binary_version(80), Arch::kSm80);
  EXPECT_EQ(arch_from_binary_version(86), Arch::kSm86);
  EXPECT_EQ(arch_from_binary_version(89), Arch::kSm89);
  EXPECT_EQ(arch_from_binary_version(90), Arch::kSm90);
}

TEST(Arch, UnknownBinaryVersionsAreRejected) {
  for (int v : {0, 1, 52, 62, 72, 87, 100, -80}) {
    EXPECT_EQ(arch_from_binary_version(v), std::nullopt) << v;
  }
}

TEST(Arch, NameAndNumberRoundTrip) {
  for (Arch arch : kAllArchs) {
    EXPECT_EQ(arch_from_name(arch_name(arch)), arch);
    EXPECT_EQ(arch_from_binary_version(arch_number(arch)), arch);
  }
  EXPECT_EQ(arch_name(Arch::kSm80), "sm_80");
  EXPECT_EQ(arch_number(Arch::kSm75), 75);
}

TEST(Arch, NameAcceptsShortForms) {
  EXPECT_EQ(arch_from_name("sm_86"), Arch::kSm86);
  EXPECT_EQ(arch_from_name("sm86"), Arch::kSm86);
  EXPECT_EQ(arch_from_name("86"), Arch::kSm86);
  EXPECT_EQ(arch_from_name("sm_"), std::nullopt);
  EXPECT_EQ(arch_from_name("sm_8x"), std::nullopt);
  EXPECT_EQ(arch_from_name("sm_87"), std::nullopt);
  EXPECT_EQ(arch_from_name(""), std::nullopt);
}

}  // namespace
}  // namespace sassim::isa
