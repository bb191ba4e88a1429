// CtaCoverage: each CTA of a grid once, and the message naming the missing ones.
#include "traces/cta_coverage.h"

#include <gtest/gtest.h>

namespace sassim::traces {
namespace {

TEST(CtaCoverage, EachCtaOnceAndAllOfThem) {
  CtaCoverage c(Dim3{2, 3, 2});
  EXPECT_FALSE(c.complete());
  for (std::uint32_t z = 0; z < 2; ++z) {
    for (std::uint32_t y = 0; y < 3; ++y) {
      for (std::uint32_t x = 0; x < 2; ++x) EXPECT_TRUE(c.add(Dim3{x, y, z}));
    }
  }
  EXPECT_TRUE(c.complete());
  EXPECT_EQ(c.seen(), 12u);
  EXPECT_FALSE(c.add(Dim3{1, 2, 1}));  // seen before
  EXPECT_EQ(c.seen(), 12u);
}

TEST(CtaCoverage, MissingCtasAreNamedFewAtATime) {
  CtaCoverage one(Dim3{3, 1, 1});
  one.add(Dim3{0, 0, 0});
  one.add(Dim3{2, 0, 0});
  EXPECT_EQ(one.missing_message(),
            "the grid (3,1,1) has 3 CTAs, the trace 2: CTA (1,0,0) is missing");

  // Indices run x first: (1,0,0) is the second CTA, (0,1,0) the 101st.
  CtaCoverage many(Dim3{100, 100, 1});
  many.add(Dim3{0, 0, 0});
  many.add(Dim3{2, 0, 0});
  for (std::uint32_t x = 4; x < 100; ++x) many.add(Dim3{x, 0, 0});
  EXPECT_EQ(many.missing_message(),
            "the grid (100,100,1) has 10000 CTAs, the trace 98: CTAs (1,0,0), (3,0,0), (0,1,0), "
            "(1,1,0) and 9898 more are missing");
}

TEST(CtaCoverage, ListedJoinsWithAnd) {
  EXPECT_EQ(listed({"a"}, 1), "a");
  EXPECT_EQ(listed({"a", "b"}, 2), "a and b");
  EXPECT_EQ(listed({"a", "b", "c"}, 3), "a, b and c");
  EXPECT_EQ(listed({"a", "b"}, 5), "a, b and 3 more");
}

}  // namespace
}  // namespace sassim::traces
