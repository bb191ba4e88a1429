// Sustained DRAM bandwidth of a streaming read workload against the configured peak.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "configs/config_loader.h"
#include "configs/derived.h"
#include "memsys_test_support.h"
#include "tests/support/memory_measurements.h"

namespace sassim::memsys {
namespace {

// The SMs stream one array together (tests/support/memory_measurements.h).
measure::DramStream stream(const config::GpuConfig& c, std::uint32_t warps_per_sm) {
  const measure::DramStream m = measure::dram_stream_reads(c, warps_per_sm);
  EXPECT_EQ(m.total_bytes, static_cast<double>(c.num_sms()) * warps_per_sm * 512)
      << "every byte is read once";
  return m;
}

TEST(Bandwidth, StreamingReachesTheConfiguredDramPeak) {
  config::GpuConfig c = testing::small_config();
  c.set_num_sms(8);
  c.mutable_l1()->set_mshr_entries(64);
  c.mutable_l2()->set_mshr_entries(64);
  const measure::DramStream m = stream(c, 256);
  std::printf("small config: measured %.3f GB/s, peak %.3f GB/s (%.2f%%)\n",
              m.bytes_per_second / 1e9, m.peak / 1e9, 100 * m.bytes_per_second / m.peak);
  EXPECT_NEAR(m.peak, 32e9, 1);  // 2 channels x 64 bits / 8 x 2000 MT/s
  EXPECT_GT(m.bytes_per_second, 0.99 * m.peak);
  EXPECT_LE(m.bytes_per_second, m.upper_bound);
}

// Streaming reads on the HBM presets, with bank timing and refresh: 85-93% of the
// peak (issue 4's target for A100 and H100, from microbenchmarks on real parts).
class PresetStream : public ::testing::TestWithParam<const char*> {};

TEST_P(PresetStream, ReachesEightyFiveToNinetyThreePercentOfPeak) {
  const config::GpuConfig c = config::load_config(GetParam());
  const measure::DramStream m = stream(c, 2048);
  const double fraction = m.bytes_per_second / m.peak;
  std::printf("%s preset: streaming reads %.1f GB/s, peak %.1f GB/s (%.2f%%)\n", GetParam(),
              m.bytes_per_second / 1e9, m.peak / 1e9, 100 * fraction);
  EXPECT_GE(fraction, 0.85);
  EXPECT_LE(fraction, 0.93);
}

INSTANTIATE_TEST_SUITE_P(Hbm, PresetStream, ::testing::Values("a100", "h100", "h200"),
                         [](const auto& param_info) { return std::string(param_info.param); });

// A device-to-device copy on the H200 preset: the SMs copy one array, 512 bytes per
// warp instruction (a load, then a store of the same size elsewhere); DRAM read plus
// write bytes over the middle of the run, long enough to span several refresh
// intervals (as docs/VALIDATION.md), against the 4.3 TB/s measured on a real H200
// (reference-data.md), within 10%.
TEST(Bandwidth, H200CopyReadPlusWriteNearTheMeasuredFigure) {
  const config::GpuConfig c = config::load_config("h200");
  const double rate = measure::dram_copy_bytes_per_second(c, 2048);
  const double peak = config::dram_peak_bytes_per_second(c);
  std::printf("h200 copy: read + write %.1f GB/s (%.2f%% of peak %.1f GB/s), measured 4300\n",
              rate / 1e9, 100 * rate / peak, peak / 1e9);
  EXPECT_NEAR(rate, 4.3e12, 0.43e12);
}

}  // namespace
}  // namespace sassim::memsys
