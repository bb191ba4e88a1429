// Kernel names for people: demangled, shortened in the middle to the column's width.
#include "ground/display_name.h"

#include <gtest/gtest.h>

namespace sassim {
namespace {

TEST(DisplayName, DemanglesItaniumNamesAndKeepsOthers) {
  EXPECT_EQ(demangle(" _Z6vecAddIfEvPT_S1_S1_i\n"),
            "void vecAdd<float>(float*, float*, float*, int)");
  EXPECT_EQ(demangle("vecAdd"), "vecAdd");
  EXPECT_EQ(demangle("_Zbroken"), "_Zbroken");  // does not demangle: returned as given
}

TEST(DisplayName, ShortensInTheMiddleToTheWidth) {
  EXPECT_EQ(shorten_middle("abcdefghij", 10), "abcdefghij");
  EXPECT_EQ(shorten_middle("abcdefghijk", 10), "abcd...ijk");
  EXPECT_EQ(shorten_middle("abcdefghijk", 9), "abc...ijk");
  EXPECT_EQ(shorten_middle("abcdefghijk", 4), "abcd");
  EXPECT_EQ(shorten_middle("abcdefghijk", 10).size(), 10u);
}

TEST(DisplayName, KernelNamesLoseTheReturnTypeAndKeepBothEnds) {
  EXPECT_EQ(kernel_display_name("_Z6vecAddIfEvPT_S1_S1_i", 60),
            "vecAdd<float>(float*, float*, float*, int)");
  EXPECT_EQ(kernel_display_name("_Z6vecAddIfEvPT_S1_S1_i", 20), "vecAdd<fl...t*, int)");
  EXPECT_EQ(kernel_display_name("plain_kernel", 36), "plain_kernel");
}

}  // namespace
}  // namespace sassim
