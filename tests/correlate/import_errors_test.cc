// Malformed and unsupported hardware files give errors naming the file, the line and
// what was expected.
#include <gtest/gtest.h>

#include <gmock/gmock.h>

#include "correlate/hw_import.h"
#include "correlate_fixtures.h"

namespace sassim::correlate {
namespace {

using ::testing::AllOf;
using testing::error_of;
using ::testing::HasSubstr;
using ::testing::StartsWith;

class ImportErrors : public testing::ScratchDir {
 protected:
  // The error importing `content` written to `name`.
  std::string import_error(const std::string& name, const std::string& content,
                           const HwImportOptions& options = {}) {
    const std::string file = write(name, content);
    return error_of([&] { import_hw_file(file, options); });
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
};

const char* const kRawHeader = "\"ID\",\"Kernel Name\",\"sm__cycles_elapsed.avg\"\n";

TEST_F(ImportErrors, MissingFile) {
  EXPECT_EQ(error_of([] { import_hw_file("/no/such/file.csv", {}); }),
            "/no/such/file.csv: cannot open the file");
}

TEST_F(ImportErrors, EmptyFile) {
  EXPECT_THAT(import_error("empty.csv", "\n\n"),
              StartsWith(path("empty.csv") + ": no table in the file; expected an Nsight"));
}

TEST_F(ImportErrors, UnknownFormat) {
  const std::string e = import_error("x.csv", "\nfoo,bar\n1,2\n");
  EXPECT_THAT(e, StartsWith(path("x.csv") + ":2: unknown hardware measurement format: expected"));
  EXPECT_THAT(e, HasSubstr("\"Kernel Name\""));
  EXPECT_THAT(e, HasSubstr("found \"foo,bar\""));
}

TEST_F(ImportErrors, ProfilerLogWithoutTable) {
  EXPECT_THAT(import_error("log.txt", "==PROF== Connected\nhello from the app\n==PROF== bye\n"),
              StartsWith(path("log.txt") + ":2: unknown hardware measurement format"));
}

TEST_F(ImportErrors, BinaryReport) {
  EXPECT_THAT(import_error("r.ncu-rep", std::string("NVRP\0\1\2", 7)),
              AllOf(StartsWith(path("r.ncu-rep") + ": a binary file"), HasSubstr("--page raw")));
}

TEST_F(ImportErrors, WrongFieldCount) {
  EXPECT_EQ(import_error("n.csv", std::string(kRawHeader) + "\"0\",\"k\",\"5\"\n\"1\",\"k\"\n"),
            path("n.csv") + ":3: expected 3 fields as in the header (line 1), found 2");
}

TEST_F(ImportErrors, UnclosedQuote) {
  EXPECT_EQ(import_error("q.csv", std::string(kRawHeader) + "\"0\",\"k,5\n"),
            path("q.csv") + ":2: unclosed quote");
}

TEST_F(ImportErrors, NotANumber) {
  EXPECT_EQ(import_error("nan.csv", std::string(kRawHeader) + "\"0\",\"k\",\"lots\"\n"),
            path("nan.csv") +
                ":2: column \"sm__cycles_elapsed.avg\": expected a number, found "
                "\"lots\"");
  // A decimal comma (a non-English locale) is not silently misread.
  EXPECT_THAT(import_error("comma.csv", std::string(kRawHeader) + "\"0\",\"k\",\"9,00\"\n"),
              HasSubstr("comma.csv:2: column \"sm__cycles_elapsed.avg\": expected a number"));
}

TEST_F(ImportErrors, NonPositiveCycles) {
  EXPECT_EQ(import_error("zero.csv", std::string(kRawHeader) + "\"0\",\"k\",\"0\"\n"),
            path("zero.csv") +
                ":2: kernel \"k\": sm__cycles_elapsed.avg gives 0 cycles; expected "
                "a positive cycle count");
}

TEST_F(ImportErrors, NoCycleMetric) {
  const std::string e = import_error("none.csv",
                                     "\"ID\",\"Kernel Name\",\"dram__bytes.sum\"\n"
                                     "\"0\",\"k\",\"5\"\n");
  EXPECT_THAT(e, StartsWith(path("none.csv") + ":2: this launch has none of the cycle metrics"));
  EXPECT_THAT(e, HasSubstr("gpc__cycles_elapsed.avg"));
}

TEST_F(ImportErrors, UnknownUnit) {
  EXPECT_EQ(import_error("unit.csv",
                         "\"ID\",\"Kernel Name\",\"gpc__cycles_elapsed.avg\"\n"
                         "\"\",\"\",\"furlong\"\n\"0\",\"k\",\"5\"\n"),
            path("unit.csv") +
                ":3: gpc__cycles_elapsed.avg has unit \"furlong\"; expected cycle "
                "(or Kcycle, Mcycle)");
}

TEST_F(ImportErrors, DurationWithoutClock) {
  EXPECT_THAT(import_error("dur.csv",
                           "\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\"\n"
                           "\"\",\"\",\"nsecond\"\n\"0\",\"k\",\"2,720\"\n"),
              AllOf(StartsWith(path("dur.csv") + ":3: gpu__time_duration.sum is a duration and "
                                                 "the file gives no clock"),
                    HasSubstr("pass --clock-mhz")));
}

TEST_F(ImportErrors, ForcedMetricAbsent) {
  HwImportOptions options;
  options.metric = "gpc__cycles_elapsed.max";
  EXPECT_EQ(import_error("f.csv", std::string(kRawHeader) + "\"0\",\"k\",\"5\"\n", options),
            path("f.csv") +
                ":2: this launch has no value for metric gpc__cycles_elapsed.max "
                "(--hw-metric)");
}

TEST_F(ImportErrors, MissingKernelName) {
  EXPECT_EQ(
      import_error("k.csv", std::string(kRawHeader) + "\"0\",\"k\",\"5\"\n\"1\",\"\",\"5\"\n"),
      path("k.csv") + ":3: expected a kernel name in column \"Kernel Name\"");
}

TEST_F(ImportErrors, LongFormatMissingValueColumn) {
  EXPECT_EQ(import_error("l.csv",
                         "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Value\"\n"
                         "\"0\",\"k\",\"gpc__cycles_elapsed.avg\",\"\"\n"),
            path("l.csv") +
                ":2: this launch has none of the cycle metrics gpc__cycles_elapsed.avg, "
                "sm__cycles_elapsed.avg, gpc__elapsed_cycles_avg, "
                "sm__elapsed_cycles_avg, gpc__cycles_elapsed.max, "
                "sm__cycles_elapsed.max, gpc__elapsed_cycles_max, "
                "sm__elapsed_cycles_max, nor a duration (gpu__time_duration.sum, "
                "gpu__time_duration); profile with `ncu --csv --metrics "
                "gpc__cycles_elapsed.avg,sm__cycles_elapsed.avg,gpu__time_duration.sum`");
}

TEST_F(ImportErrors, NvprofSummaryMode) {
  EXPECT_THAT(
      import_error("sum.csv",
                   "==1== Profiling result:\n"
                   "\"Device\",\"Kernel\",\"Invocations\",\"Metric Name\","
                   "\"Metric Description\",\"Min\",\"Max\",\"Avg\"\n"),
      AllOf(StartsWith(path("sum.csv") + ":2: an nvprof summary"), HasSubstr("--print-gpu-trace")));
}

TEST_F(ImportErrors, NvprofNotCsv) {
  EXPECT_EQ(import_error("txt.log",
                         "==1== Profiling application: ./a\n==1== Profiling result:\n"
                         "            Type  Time(%)      Time     Calls\n"),
            path("txt.log") + ":3: nvprof's result table is not CSV; rerun nvprof with --csv");
}

TEST_F(ImportErrors, NvprofUnknownDevice) {
  EXPECT_EQ(import_error("dev.log",
                         "\"Device\",\"Context\",\"Stream\",\"Kernel\","
                         "\"elapsed_cycles_sm\"\n"
                         ",,,,\n\"Mystery GPU (0)\",\"1\",\"7\",\"k\",1000\n"),
            path("dev.log") +
                ":3: elapsed_cycles_sm is summed over the SMs and the SM count of "
                "device \"Mystery GPU (0)\" is not known; pass --num-sms");
}

TEST_F(ImportErrors, NvprofWithoutElapsedCycles) {
  EXPECT_THAT(import_error("ec.log", "\"Device\",\"Context\",\"Stream\",\"Kernel\",\"ipc\"\n"),
              AllOf(StartsWith(path("ec.log") + ":1: the header has no \"elapsed_cycles_sm\" "
                                                "column"),
                    HasSubstr("--metrics elapsed_cycles_sm")));
}

TEST_F(ImportErrors, NvprofTraceWithoutClock) {
  EXPECT_THAT(import_error("t.csv",
                           "\"Start\",\"Duration\",\"Grid X\",\"Name\"\n"
                           "1.0,3.2,1,\"k\"\n"),
              AllOf(StartsWith(path("t.csv") + ":1: an nvprof GPU trace gives durations"),
                    HasSubstr("--clock-mhz")));
}

TEST_F(ImportErrors, KernelTableBadValue) {
  EXPECT_EQ(import_error("kt.csv", "kernel,cycles\nk,-\n"),
            path("kt.csv") + ":2: column \"cycles\": expected a number, found \"-\"");
}

TEST_F(ImportErrors, TableWithoutLaunches) {
  EXPECT_EQ(import_error("h.csv", "kernel,cycles\n"),
            path("h.csv") + ":1: a kernel-table table with no kernel launch");
}

}  // namespace
}  // namespace sassim::correlate
