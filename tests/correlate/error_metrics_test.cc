// MAPE, MAE, bias, aggregate error and Pearson r on data with known answers.
#include "correlate/error_metrics.h"

#include <gtest/gtest.h>

#include <cmath>

#include "correlate_fixtures.h"

namespace sassim::correlate {
namespace {

using testing::error_of;

TEST(ErrorMetrics, KnownAnswers) {
  // Relative errors +10%, -10%, +100%.
  const ErrorSummary s = summarize_errors({110, 90, 200}, {100, 100, 100});
  EXPECT_EQ(s.n, 3U);
  EXPECT_DOUBLE_EQ(s.mape_percent, 40.0);
  EXPECT_DOUBLE_EQ(s.mae, 40.0);  // (10 + 10 + 100) / 3
  EXPECT_NEAR(s.bias_percent, 100.0 / 3.0, 1e-12);
  EXPECT_DOUBLE_EQ(s.max_abs_error_percent, 100.0);
  EXPECT_EQ(s.max_abs_error_index, 2U);
  EXPECT_DOUBLE_EQ(s.sim_total, 400.0);
  EXPECT_DOUBLE_EQ(s.hw_total, 300.0);
  EXPECT_NEAR(s.aggregate_error_percent, 100.0 / 3.0, 1e-12);
  EXPECT_FALSE(s.pearson_r.has_value());  // the hardware values are all equal
  const ErrorSummary t = summarize_errors({1, 2, 3, 4, 5}, {2, 4, 5, 4, 5});
  ASSERT_TRUE(t.pearson_r.has_value());
  EXPECT_NEAR(*t.pearson_r, 6.0 / std::sqrt(60.0), 1e-15);
}

TEST(ErrorMetrics, SignedRelativeError) {
  EXPECT_DOUBLE_EQ(relative_error(367, 5773.25), (367 - 5773.25) / 5773.25);
  EXPECT_DOUBLE_EQ(relative_error(150, 100), 0.5);
  EXPECT_DOUBLE_EQ(relative_error(50, 100), -0.5);
}

TEST(ErrorMetrics, PearsonKnownValues) {
  std::string why;
  EXPECT_DOUBLE_EQ(*pearson({1, 2, 3, 4}, {2, 4, 6, 8}, &why), 1.0);
  EXPECT_DOUBLE_EQ(*pearson({1, 2, 3, 4}, {8, 6, 4, 2}, &why), -1.0);
  // dx = -2..2, dy = -2,0,1,0,1: sxy 6, sxx 10, syy 6, r = 6 / sqrt(60).
  EXPECT_NEAR(*pearson({1, 2, 3, 4, 5}, {2, 4, 5, 4, 5}, &why), 6.0 / std::sqrt(60.0), 1e-15);
}

TEST(ErrorMetrics, PearsonUndefinedIsSaid) {
  std::string why;
  EXPECT_FALSE(pearson({5}, {7}, &why).has_value());
  EXPECT_EQ(why, "undefined with n = 1 (needs at least 2 kernels)");
  EXPECT_FALSE(pearson({3, 3, 3}, {1, 2, 3}, &why).has_value());
  EXPECT_EQ(why, "undefined: the simulated values are all equal (n = 3)");
  EXPECT_FALSE(pearson({1, 2, 3}, {4, 4, 4}, &why).has_value());
  EXPECT_EQ(why, "undefined: the hardware values are all equal (n = 3)");
  const ErrorSummary one = summarize_errors({367}, {5773.25});
  EXPECT_FALSE(one.pearson_r.has_value());
  EXPECT_EQ(one.pearson_note, "undefined with n = 1 (needs at least 2 kernels)");
}

TEST(ErrorMetrics, RejectsEmptyAndNonPositiveHardware) {
  EXPECT_NE(error_of([] { summarize_errors({}, {}); }), "");
  EXPECT_NE(error_of([] { summarize_errors({1}, {0}); }).find("not positive"), std::string::npos);
  EXPECT_NE(error_of([] { summarize_errors({1, 2}, {1}); }), "");
}

}  // namespace
}  // namespace sassim::correlate
