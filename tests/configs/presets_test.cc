// Every bundled preset loads and validates; h200 inherits from h100; derived values
// match the datasheets.
#include <cmath>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "configs/config_loader.h"
#include "configs/derived.h"
#include "configs/text_parser.h"
#include "tests/configs/error_matchers.h"

namespace sassim::config {
namespace {

using testing::error_of;
using ::testing::HasSubstr;

TEST(Presets, BundledListIsComplete) {
  const std::vector<std::string> expected = {"a100",  "a100-pcie", "gtx1080", "h100",    "h200",
                                             "qv100", "rtx2060",   "rtx3070", "rtx4090", "v100"};
  EXPECT_EQ(preset_names(), expected);
}

class EveryPreset : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryPreset, LoadsValidatesAndClearsBase) {
  const GpuConfig config = load_config(GetParam());
  EXPECT_NO_THROW(validate(config));
  EXPECT_FALSE(config.has_base());
  EXPECT_FALSE(config.name().empty());
  EXPECT_GT(dram_peak_bytes_per_second(config), 1e11);
}

TEST_P(EveryPreset, TextRoundTripsThroughTheParser) {
  const GpuConfig config = load_config(GetParam());
  const std::string text = to_text(config);
  GpuConfig parsed;
  ASSERT_NO_THROW(parsed = parse_config_text(text, "to_text"));
  EXPECT_NO_THROW(validate(parsed));
  EXPECT_EQ(to_text(parsed), text);
  EXPECT_EQ(parsed.l1().hit_latency_cycles(), config.l1().hit_latency_cycles());
  EXPECT_EQ(parsed.dram().data_rate_mtps(), config.dram().data_rate_mtps());
}

INSTANTIATE_TEST_SUITE_P(All, EveryPreset,
                         ::testing::Values("a100", "a100-pcie", "gtx1080", "h100", "h200", "qv100",
                                           "rtx2060", "rtx3070", "rtx4090", "v100"));

TEST(Presets, QV100IsAV100WithItsClocks) {
  const GpuConfig v100 = load_config("v100");
  const GpuConfig qv100 = load_config("qv100");
  EXPECT_EQ(qv100.arch(), "sm_70");
  EXPECT_EQ(qv100.num_sms(), 80U);
  EXPECT_EQ(qv100.l2().size_bytes(), v100.l2().size_bytes());
  EXPECT_DOUBLE_EQ(qv100.clocks().core_mhz(), 1628.0);
  EXPECT_DOUBLE_EQ(qv100.dram().data_rate_mtps(), 1700.0);
  // 4096 bits at 1700 MT/s.
  EXPECT_NEAR(dram_peak_bytes_per_second(qv100), 870.4e9, 1e6);
}

TEST(Presets, A100PcieIsAnA100WithHbm2eAndItsClocks) {
  const GpuConfig a100 = load_config("a100");
  const GpuConfig pcie = load_config("a100-pcie");
  EXPECT_EQ(pcie.arch(), "sm_80");
  EXPECT_EQ(pcie.num_sms(), 108U);
  EXPECT_EQ(pcie.l2().size_bytes(), a100.l2().size_bytes());
  EXPECT_EQ(pcie.dram().type(), "HBM2e");
  EXPECT_DOUBLE_EQ(pcie.clocks().core_mhz(), 1410.0);
  // 5120 bits at 3024 MT/s: the datasheet's 1,935 GB/s.
  EXPECT_NEAR(dram_peak_bytes_per_second(pcie), 1935.36e9, 1e6);
  EXPECT_DOUBLE_EQ(pcie.energy().board_power_limit_w(), 300.0);  // 400 W on the SXM4 part
}

TEST(Presets, H200InheritsWhatItDoesNotOverride) {
  const GpuConfig h100 = load_config("h100");
  const GpuConfig h200 = load_config("h200");
  // Inherited.
  EXPECT_EQ(h200.arch(), "sm_90");
  EXPECT_EQ(h200.num_sms(), h100.num_sms());
  EXPECT_EQ(h200.sm().units().fp32().initiation_interval_cycles(), 1u);
  EXPECT_EQ(h200.l1().unified_size_bytes(), h100.l1().unified_size_bytes());
  EXPECT_EQ(h200.l2().associativity(), h100.l2().associativity());
  EXPECT_EQ(h200.dram().bus_width_bits(), h100.dram().bus_width_bits());
  EXPECT_EQ(h200.interconnect().latency_cycles(), h100.interconnect().latency_cycles());
  EXPECT_EQ(h200.sm().opcode_latency_cycles().at("HGMMA"), 128u);
  // Overridden.
  EXPECT_EQ(h200.name(), "NVIDIA H200 SXM 141GB");
  EXPECT_EQ(h200.clocks().core_mhz(), 1980.0);
  EXPECT_NE(h200.clocks().core_mhz(), h100.clocks().core_mhz());
  EXPECT_EQ(h200.l2().size_bytes(), 60u * 1024 * 1024);
  EXPECT_EQ(h100.l2().size_bytes(), 50u * 1024 * 1024);
  EXPECT_EQ(h200.dram().type(), "HBM3e");
  EXPECT_EQ(h100.dram().type(), "HBM3");
  // The L2 on a clock of its own, the crossbar on the SMs' (measured at two SM clocks).
  EXPECT_EQ(h200.clocks().l2_mhz(), 1660.0);
  EXPECT_TRUE(h200.interconnect().core_clock());
  EXPECT_FALSE(h100.interconnect().core_clock());
  EXPECT_LT(h200.dram().latency_ns(), h100.dram().latency_ns());
}

// The grid's front-end time was measured on an H200 only; the presets the Accel-Sim
// record checks (v100/qv100, a100) carry the same split, the others none.
TEST(Presets, GridLaunchTimeIsTheH200SplitWhereTheRecordChecksIt) {
  const GpuConfig h100 = load_config("h100");
  EXPECT_EQ(h100.sm().grid_launch_cycles(), 230u);
  EXPECT_DOUBLE_EQ(h100.sm().grid_launch_ns(), 1263.0);
  for (const char* name : {"h200", "v100", "qv100", "a100"}) {
    const GpuConfig c = load_config(name);
    EXPECT_EQ(c.sm().grid_launch_cycles(), h100.sm().grid_launch_cycles()) << name;
    EXPECT_DOUBLE_EQ(c.sm().grid_launch_ns(), h100.sm().grid_launch_ns()) << name;
  }
  for (const char* name : {"gtx1080", "rtx2060", "rtx3070", "rtx4090"}) {
    const GpuConfig c = load_config(name);
    EXPECT_EQ(c.sm().grid_launch_cycles(), 0u) << name;
    EXPECT_DOUBLE_EQ(c.sm().grid_launch_ns(), 0.0) << name;
  }
}

// GH100's L2 fetches 64 bytes per missing sector (measured on an H200); the other presets
// one sector (no measurement).
TEST(Presets, FetchGranularityIsSixtyFourBytesOnGH100Only) {
  EXPECT_EQ(load_config("h100").l2().fetch_granularity_bytes(), 64u);
  EXPECT_EQ(load_config("h200").l2().fetch_granularity_bytes(), 64u);
  EXPECT_EQ(load_config("a100").l2().fetch_granularity_bytes(), 0u);
  EXPECT_EQ(load_config("v100").l2().fetch_granularity_bytes(), 0u);
}

// The GH100 SM's sending port: 36 packet bytes a clock (32 of data measured on an H200);
// the other presets send at their port_bytes_per_cycle.
TEST(Presets, RequestPortIsNarrowerOnGH100Only) {
  for (const char* gh100 : {"h100", "h200"}) {
    const InterconnectConfig noc = load_config(gh100).interconnect();
    EXPECT_EQ(noc.request_port_bytes_per_cycle(), 36u) << gh100;
    EXPECT_LT(noc.request_port_bytes_per_cycle(), noc.port_bytes_per_cycle()) << gh100;
  }
  for (const char* other : {"a100", "v100", "qv100", "rtx4090"}) {
    EXPECT_EQ(load_config(other).interconnect().request_port_bytes_per_cycle(), 0u) << other;
  }
}

// h100's latency_ns is the [LUO2] H800 unloaded DRAM latency (mean of near and far
// miss minus hit, 314 cycles at 1755 MHz) less tRCD + tCL and the mean refresh wait.
TEST(Presets, H100DramLatencyAddsUpToTheMeasurement) {
  const DramConfig d = load_config("h100").dram();
  const double refresh_wait = d.t_rfc_ns() * d.t_rfc_ns() / (2 * d.t_refi_ns());
  EXPECT_NEAR(d.latency_ns() + d.t_rcd_ns() + d.t_cl_ns() + refresh_wait, 314 / 1.755, 0.1);
}

// The HBM3 / HBM3e timings are whole clocks of tCK = 4 / data rate (rounded to 0.01 ns).
TEST(Presets, HopperDramTimingsAreWholeHbm3Clocks) {
  for (const char* name : {"h100", "h200"}) {
    const DramConfig d = load_config(name).dram();
    const double tck_ns = 4000.0 / d.data_rate_mtps();
    for (const double t :
         {d.t_rcd_ns(), d.t_rp_ns(), d.t_ras_ns(), d.t_cl_ns(), d.t_wl_ns(), d.t_wr_ns(),
          d.t_ccd_s_ns(), d.t_ccd_l_ns(), d.t_rtw_ns(), d.t_wtr_ns()}) {
      const double clocks = t / tck_ns;
      EXPECT_NEAR(clocks, std::round(clocks), 0.01) << name << ": " << t << " ns";
    }
  }
}

TEST(Derived, A100PeakBandwidthMatchesTheDatasheet) {
  const GpuConfig a100 = load_config("a100");
  EXPECT_NEAR(dram_peak_bytes_per_second(a100), 1555e9, 0.01 * 1555e9);
  EXPECT_EQ(l1_data_bytes(a100), 192u * 1024 - 164u * 1024);
  EXPECT_EQ(l2_slice_bytes(a100), 40u * 1024 * 1024 / 160);
  EXPECT_DOUBLE_EQ(dram_clock_mhz(a100), 1215.0);
}

TEST(Derived, HopperPeakBandwidthMatchesTheDatasheets) {
  const GpuConfig h100 = load_config("h100");
  const GpuConfig h200 = load_config("h200");
  EXPECT_NEAR(dram_peak_bytes_per_second(h100), 3.35e12, 0.01 * 3.35e12);
  EXPECT_NEAR(dram_peak_bytes_per_second(h200), 4.8e12, 0.01 * 4.8e12);
  EXPECT_DOUBLE_EQ(dram_clock_mhz(h100), 2619.0);
  EXPECT_EQ(l2_slice_bytes(h100), 640u * 1024);
  EXPECT_EQ(l2_slice_bytes(h200), 640u * 1024);
  EXPECT_EQ(l1_data_bytes(h100), 28u * 1024);
}

TEST(Derived, CarveOutIsTheSmallestOptionHoldingTheResidentCtas) {
  const GpuConfig a100 = load_config("a100");
  constexpr std::uint32_t kKB = 1024;
  EXPECT_EQ(l1_max_data_bytes(a100), 192 * kKB);     // carve-out 0
  EXPECT_EQ(shared_carveout_bytes(a100, 1, 0), 0u);  // no shared memory: all L1
  EXPECT_EQ(shared_carveout_bytes(a100, 1, 48 * kKB), 64 * kKB);
  EXPECT_EQ(shared_carveout_bytes(a100, 2, 48 * kKB), 100 * kKB);
  EXPECT_EQ(shared_carveout_bytes(a100, 3, 48 * kKB), 164 * kKB);
  EXPECT_EQ(shared_carveout_bytes(a100, 32, 8 * kKB), 164 * kKB);  // none holds 256 KB
  GpuConfig fixed = a100;
  fixed.mutable_l1()->clear_shared_carveout_options_bytes();
  EXPECT_EQ(shared_carveout_bytes(fixed, 1, 0), 164 * kKB);
  EXPECT_EQ(l1_max_data_bytes(fixed), 28 * kKB);
}

// The unloaded near L2 hit of a load, as the presets' sources measure it (the
// instruction fetch's L1i miss latency where l1i_miss_latency_from_l2 is set).
TEST(Derived, L2HitLatencyIsThePublishedNearL2Hit) {
  EXPECT_EQ(l2_hit_latency_cycles(load_config("a100")), 208u);     // Luo et al. (near)
  EXPECT_EQ(l2_hit_latency_cycles(load_config("h100")), 258u);     // Luo et al. (H800, near)
  EXPECT_EQ(l2_hit_latency_cycles(load_config("v100")), 221u);     // markdewing/AI_kernels
  EXPECT_EQ(l2_hit_latency_cycles(load_config("gtx1080")), 250u);  // PPT-GPU
  EXPECT_EQ(l2_hit_latency_cycles(load_config("rtx4090")), 273u);  // Luo et al.
}

TEST(Derived, OtherPresetsMatchTheirDatasheets) {
  EXPECT_NEAR(dram_peak_bytes_per_second(load_config("v100")), 900e9, 0.01 * 900e9);
  EXPECT_NEAR(dram_peak_bytes_per_second(load_config("rtx3070")), 448e9, 0.01 * 448e9);
  EXPECT_NEAR(dram_peak_bytes_per_second(load_config("rtx2060")), 336e9, 0.01 * 336e9);
  EXPECT_NEAR(dram_peak_bytes_per_second(load_config("rtx4090")), 1008e9, 0.01 * 1008e9);
  EXPECT_NEAR(dram_peak_bytes_per_second(load_config("gtx1080")), 320e9, 0.01 * 320e9);
}

TEST(Derived, DramClockFollowsTheSignalling) {
  GpuConfig config = load_config("rtx3070");
  EXPECT_DOUBLE_EQ(dram_clock_mhz(config), 7000.0);                  // GDDR6: DDR on WCK
  EXPECT_DOUBLE_EQ(dram_clock_mhz(load_config("gtx1080")), 2500.0);  // GDDR5X: QDR
  EXPECT_DOUBLE_EQ(dram_clock_mhz(load_config("rtx4090")), 5250.0);  // GDDR6X: PAM4
  config.mutable_dram()->set_type("DDR4");
  EXPECT_THAT(error_of([&] { dram_clock_mhz(config); }), HasSubstr("\"DDR4\""));
}

TEST(Derived, PresetForBinaryVersion) {
  EXPECT_EQ(preset_for_binary_version(60), "gtx1080");
  EXPECT_EQ(preset_for_binary_version(61), "gtx1080");
  EXPECT_EQ(preset_for_binary_version(70), "v100");
  EXPECT_EQ(preset_for_binary_version(75), "rtx2060");
  EXPECT_EQ(preset_for_binary_version(80), "a100");
  EXPECT_EQ(preset_for_binary_version(86), "rtx3070");
  EXPECT_EQ(preset_for_binary_version(89), "rtx4090");
  EXPECT_EQ(preset_for_binary_version(90), "h100");
  const std::string message = error_of([] { preset_for_binary_version(52); });
  EXPECT_THAT(message, HasSubstr("binary version 52"));
  EXPECT_THAT(message, HasSubstr("60, 61, 70, 75, 80, 86, 89, 90"));
}

TEST(Derived, EveryBinaryVersionNamesABundledPreset) {
  const std::vector<std::string> names = preset_names();
  for (int version : {60, 61, 70, 75, 80, 86, 89, 90}) {
    EXPECT_THAT(names, ::testing::Contains(preset_for_binary_version(version))) << version;
  }
}

}  // namespace
}  // namespace sassim::config
