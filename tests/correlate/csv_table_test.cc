// CSV splitting and number parsing as profilers print them.
#include "correlate/csv_table.h"

#include <gtest/gtest.h>

namespace sassim::correlate {
namespace {

TEST(CsvTable, SplitsQuotedFields) {
  using V = std::vector<std::string>;
  EXPECT_EQ(*split_csv_line(R"("a","b,c",d,,"e""f")"), (V{"a", "b,c", "d", "", "e\"f"}));
  EXPECT_EQ(*split_csv_line(""), (V{""}));
  EXPECT_FALSE(split_csv_line("\"open").has_value());
}

TEST(CsvTable, ParsesNumbersWithThousandsSeparators) {
  EXPECT_EQ(*parse_number("5,773.25"), 5773.25);
  EXPECT_EQ(*parse_number("1,759,000.00"), 1759000.0);
  EXPECT_EQ(*parse_number(" 89355 "), 89355.0);
  EXPECT_EQ(*parse_number("-0.5"), -0.5);
  EXPECT_EQ(*parse_number("1.5e3"), 1500.0);
  EXPECT_EQ(*parse_number("+7"), 7.0);
}

TEST(CsvTable, RejectsWhatIsNotANumber) {
  for (const char* bad :
       {"", "n/a", "9,00", "1,2345", ",123", "12,", "1.2.3", "abc", "5 cycles", "1,000,00"}) {
    EXPECT_FALSE(parse_number(bad).has_value()) << bad;
  }
}

}  // namespace
}  // namespace sassim::correlate
