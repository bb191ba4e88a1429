// Each hardware format read from real profiler output (the GTX 1080 vectoradd) or from
// small files in the formats' documented shapes.
#include <gtest/gtest.h>

#include "correlate/hw_import.h"
#include "correlate_fixtures.h"

namespace sassim::correlate {
namespace {

using testing::hw_data;
using testing::kNsightCsv;
using testing::kNvprofLog;
using testing::kNvprofMetrics;

class Importers : public testing::ScratchDir {};

TEST_F(Importers, NsightRawPageWithUnitsRow) {
  const HwMeasurements m = import_hw_file(hw_data(kNsightCsv).string(), {});
  EXPECT_EQ(m.format, "ncu-raw");
  ASSERT_EQ(m.kernels.size(), 3U);
  EXPECT_EQ(m.kernels[0].name, "vecAdd");
  EXPECT_EQ(m.kernels[0].cycles, 5773.25);
  EXPECT_EQ(m.kernels[0].metric, "sm__elapsed_cycles_avg");
  EXPECT_EQ(m.kernels[0].line, 3U);  // header, units row, first launch
  EXPECT_EQ(m.kernels[0].launch, "ID 0");
  EXPECT_EQ(m.kernels[1].cycles, 5761.0);
  EXPECT_EQ(m.kernels[2].cycles, 5800.25);
  ASSERT_FALSE(m.notes.empty());
  EXPECT_EQ(m.notes[0], "device: NVIDIA GeForce GTX 1080");
}

TEST_F(Importers, NsightChosenMetricAndDurationTimesClock) {
  HwImportOptions options;
  options.metric = "gpc__elapsed_cycles_max";
  EXPECT_EQ(import_hw_file(hw_data(kNsightCsv).string(), options).kernels[0].cycles, 5774.0);
  // 2,720 ns at device__attribute_clock_rate 1,759,000 kHz.
  options.metric = "gpu__time_duration";
  const HwKernel k = import_hw_file(hw_data(kNsightCsv).string(), options).kernels[0];
  EXPECT_DOUBLE_EQ(k.cycles, 2720.0 * 1759.0 / 1000.0);
  EXPECT_EQ(k.metric, "gpu__time_duration x 1759 MHz (device__attribute_clock_rate)");
  options.clock_mhz = 1000;
  EXPECT_DOUBLE_EQ(import_hw_file(hw_data(kNsightCsv).string(), options).kernels[0].cycles, 2720.0);
}

TEST_F(Importers, NsightLongFormatWithChatterAndUnits) {
  const std::string file =
      write("long.csv",
            "==PROF== Connected to process 1234 (/app)\n"
            "==PROF== Profiling \"k\" - 0: 0%....50%....100% - 3 passes\n"
            "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel "
            "Name\",\"Context\",\"Stream\",\"Device\",\"CC\",\"Section "
            "Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
            "\"0\",\"1234\",\"app\",\"h\",\"void k<float>(float *, int)\",\"1\","
            "\"7\",\"0\",\"8.0\",\"Command line profiler metrics\","
            "\"gpc__cycles_elapsed.avg\",\"Kcycle\",\"12.50\"\n"
            "\"0\",\"1234\",\"app\",\"h\",\"void k<float>(float *, int)\",\"1\","
            "\"7\",\"0\",\"8.0\",\"Command line profiler metrics\","
            "\"gpu__time_duration.sum\",\"usecond\",\"9.60\"\n"
            "\"1\",\"1234\",\"app\",\"h\",\"void k<float>(float *, int)\",\"1\","
            "\"7\",\"0\",\"8.0\",\"Command line profiler metrics\","
            "\"gpu__time_duration.sum\",\"usecond\",\"2.00\"\n"
            "\"1\",\"1234\",\"app\",\"h\",\"void k<float>(float *, int)\",\"1\","
            "\"7\",\"0\",\"8.0\",\"Command line profiler metrics\","
            "\"gpc__cycles_elapsed.avg.per_second\",\"cycle/nsecond\",\"1.41\"\n"
            "==PROF== Disconnected from process 1234\n");
  const HwMeasurements m = import_hw_file(file, {});
  EXPECT_EQ(m.format, "ncu-long");
  ASSERT_EQ(m.kernels.size(), 2U);
  EXPECT_EQ(m.kernels[0].cycles, 12500.0);
  EXPECT_EQ(m.kernels[0].metric, "gpc__cycles_elapsed.avg");
  EXPECT_EQ(m.kernels[0].line, 4U);
  EXPECT_EQ(m.kernels[0].launch, "ID 0");
  // 2 us at the measured 1.41 GHz.
  EXPECT_DOUBLE_EQ(m.kernels[1].cycles, 2000.0 * 1410.0 / 1000.0);
  EXPECT_EQ(m.kernels[1].metric,
            "gpu__time_duration.sum x 1410 MHz (gpc__cycles_elapsed.avg.per_second)");
}

TEST_F(Importers, NsightSectionDisplayNames) {
  const std::string file = write("sol.csv",
                                 "\"ID\",\"Kernel Name\",\"Section Name\",\"Metric Name\",\"Metric "
                                 "Unit\",\"Metric Value\"\n"
                                 "\"0\",\"k\",\"GPU Speed Of Light Throughput\",\"Duration\","
                                 "\"usecond\",\"3.10\"\n"
                                 "\"0\",\"k\",\"GPU Speed Of Light Throughput\",\"Elapsed "
                                 "Cycles\",\"cycle\",\"4,321\"\n");
  const HwKernel k = import_hw_file(file, {}).kernels.at(0);
  EXPECT_EQ(k.cycles, 4321.0);
  EXPECT_EQ(k.metric, "gpc__cycles_elapsed.max");
}

TEST_F(Importers, NvprofMetricsLogsDivideBySmCount) {
  const HwMeasurements log = import_hw_file(hw_data(kNvprofLog).string(), {});
  EXPECT_EQ(log.format, "nvprof-metrics");
  ASSERT_EQ(log.kernels.size(), 1U);
  EXPECT_EQ(log.kernels[0].name, "_Z6vecAddIfEvPT_S1_S1_i");
  EXPECT_EQ(log.kernels[0].cycles, 89355.0 / 20);
  EXPECT_EQ(log.kernels[0].metric, "elapsed_cycles_sm / 20 SMs");
  EXPECT_EQ(log.kernels[0].line, 7U);
  EXPECT_EQ(log.notes.at(0), "device: NVIDIA GeForce GTX 1080 (0) (20 SMs)");
  HwImportOptions options;
  options.num_sms = 10;
  const HwMeasurements again = import_hw_file(hw_data(kNvprofMetrics).string(), options);
  EXPECT_EQ(again.kernels.at(0).cycles, 89855.0 / 10);
}

TEST_F(Importers, NvprofGpuTraceNeedsAClock) {
  const std::string file = write(
      "trace.csv",
      "==1== Profiling result:\n"
      "\"Start\",\"Duration\",\"Grid X\",\"Grid Y\",\"Grid Z\",\"Block X\",\"Block Y\",\"Block "
      "Z\",\"Name\",\"Correlation_ID\"\n"
      "us,us,,,,,,,,\n"
      "245729.104000,1.088000,,,,,,,\"[CUDA memcpy HtoD]\",117\n"
      "245767.824000,3.264000,1,1,1,1024,1,1,\"_Z6vecAddIfEvPT_S1_S1_i\",123\n");
  HwImportOptions options;
  options.clock_mhz = 1759;
  const HwMeasurements m = import_hw_file(file, options);
  EXPECT_EQ(m.format, "nvprof-trace");
  ASSERT_EQ(m.kernels.size(), 1U);
  EXPECT_DOUBLE_EQ(m.kernels[0].cycles, 3264.0 * 1759.0 / 1000.0);
  EXPECT_EQ(m.kernels[0].launch, "Correlation_ID 123");
  EXPECT_EQ(m.kernels[0].line, 5U);
}

TEST_F(Importers, KernelTables) {
  const HwMeasurements aw =
      import_hw_file(hw_data("gv100-accelwattch-hwperf/hw_perf.csv").string(), {});
  EXPECT_EQ(aw.format, "kernel-table");
  ASSERT_EQ(aw.kernels.size(), 25U);
  EXPECT_EQ(aw.kernels[0].name, "findRangeK");
  EXPECT_EQ(aw.kernels[0].cycles, 66542.7);
  EXPECT_EQ(aw.kernels[0].metric, "Elapsed_Cycles");
  EXPECT_EQ(aw.kernels[2].name, "_Z22bpnn_layerforward_CUDAPfS_S_S_ii");
  const std::string file = write("plain.csv", "kernel,cycles\n_Z1kv,100\n\"void k()\",200\n");
  const HwMeasurements plain = import_hw_file(file, {});
  ASSERT_EQ(plain.kernels.size(), 2U);
  EXPECT_EQ(plain.kernels[1].name, "void k()");
  EXPECT_EQ(plain.kernels[1].line, 3U);
}

TEST_F(Importers, WindowsLineEndings) {
  const HwMeasurements m = import_hw_file(write("crlf.csv", "kernel,cycles\r\nk,5\r\n"), {});
  ASSERT_EQ(m.kernels.size(), 1U);
  EXPECT_EQ(m.kernels[0].cycles, 5.0);
}

}  // namespace
}  // namespace sassim::correlate
