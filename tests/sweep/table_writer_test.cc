// The merged table's two files hold the same typed columns, in order.
#include <gtest/gtest.h>

#include "merged_table.h"
#include "sweep/table_writer.h"
#include "sweep_test_support.h"

namespace sassim::sweep::test {
namespace {

Table sample() {
  Table table;
  table.columns.push_back({"n", std::vector<std::uint64_t>{1, 18446744073709551615ull}});
  table.columns.push_back({"i", std::vector<std::int64_t>{-3, 4}});
  table.columns.push_back({"x", std::vector<double>{0.1, 1e-300}});
  table.columns.push_back({"s", std::vector<std::string>{"a,b", "say \"hi\""}});
  table.columns.push_back({"gpu.sm[0].l1.hits", std::vector<double>{2, 0}});
  return table;
}

TEST(TableWriter, CsvQuotesOnlyWhatNeedsItAndKeepsEveryDigit) {
  TempDir dir("table_csv");
  write_table_csv(dir.path() / "t.csv", sample());
  EXPECT_EQ(read_file(dir.path() / "t.csv"),
            "n,i,x,s,gpu.sm[0].l1.hits\n"
            "1,-3,0.1,\"a,b\",2\n"
            "18446744073709551615,4,1e-300,\"say \"\"hi\"\"\",0\n");
}

TEST(TableWriter, Hdf5HoldsTheColumnsInOrderWithTheirTypes) {
  TempDir dir("table_h5");
  write_table_hdf5(dir.path() / "t.h5", sample(), "spec.txtpb");
  MergedFile file(dir.path() / "t.h5");
  EXPECT_EQ(file.columns(), (std::vector<std::string>{"n", "i", "x", "s", "gpu.sm[0].l1.hits"}));
  EXPECT_EQ(file.unsigneds("n"), (std::vector<std::uint64_t>{1, 18446744073709551615ull}));
  EXPECT_EQ(file.numbers<std::int64_t>("i", H5::PredType::NATIVE_INT64),
            (std::vector<std::int64_t>{-3, 4}));
  EXPECT_EQ(file.doubles("x"), (std::vector<double>{0.1, 1e-300}));
  EXPECT_EQ(file.text("s"), (std::vector<std::string>{"a,b", "say \"hi\""}));
  EXPECT_EQ(file.type_class("i"), H5T_INTEGER);
  EXPECT_EQ(file.type_class("x"), H5T_FLOAT);
  EXPECT_FALSE(fs::exists(dir.path() / ("t.h5.tmp." + std::to_string(::getpid()))));
}

}  // namespace
}  // namespace sassim::sweep::test
