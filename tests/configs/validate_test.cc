// validate(): required fields, (spec) ranges and each combination check, by message.
#include <limits>
#include <string>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "configs/config_loader.h"
#include "tests/configs/error_matchers.h"

namespace sassim::config {
namespace {

using testing::error_of;
using ::testing::HasSubstr;

class Validate : public ::testing::Test {
 protected:
  std::string problem() {
    return error_of([&] { validate(config_); });
  }
  GpuConfig config_ = load_config("a100");
};

TEST_F(Validate, PresetIsValid) {
  EXPECT_NO_THROW(validate(config_));
}

TEST_F(Validate, OutOfRange) {
  config_.mutable_l1()->set_hit_latency_cycles(0);
  EXPECT_THAT(problem(),
              HasSubstr("l1.hit_latency_cycles = 0 is out of range [1, 10000] core cycles"));
}

TEST_F(Validate, OutOfRangeDoubleAndUint64) {
  config_.mutable_clocks()->set_core_mhz(0.5);
  config_.mutable_l2()->set_size_bytes(2 * 1099511627776ull);
  const std::string message = problem();
  EXPECT_THAT(message, HasSubstr("clocks.core_mhz = 0.5 is out of range [1, 10000] MHz"));
  EXPECT_THAT(
      message,
      HasSubstr("l2.size_bytes = 2199023255552 is out of range [1024, 1099511627776] bytes"));
}

TEST_F(Validate, StreamBufferLongerThanItsRange) {
  config_.mutable_sm()->mutable_frontend()->set_stream_buffer_entries(65);
  EXPECT_THAT(problem(), HasSubstr("sm.frontend.stream_buffer_entries = 65 is out of range "
                                   "[0, 64] lines"));
}

TEST_F(Validate, NotANumberIsOutOfRange) {
  config_.mutable_dram()->set_latency_ns(std::numeric_limits<double>::quiet_NaN());
  EXPECT_THAT(problem(), HasSubstr("dram.latency_ns = nan is out of range"));
}

TEST_F(Validate, DefaultedFieldOutOfRangeWhenSet) {
  config_.mutable_l1()->set_line_bytes(16);
  EXPECT_THAT(problem(), HasSubstr("l1.line_bytes = 16 is out of range [32, 1024] bytes"));
}

TEST_F(Validate, MissingScalar) {
  config_.mutable_l2()->clear_hit_latency_cycles();
  EXPECT_THAT(problem(), HasSubstr("missing field l2.hit_latency_cycles"));
}

TEST_F(Validate, MissingNestedMessage) {
  config_.mutable_sm()->mutable_units()->clear_tensor();
  config_.clear_dram();
  const std::string message = problem();
  EXPECT_THAT(message, HasSubstr("missing field sm.units.tensor (ExecUnitConfig message)"));
  EXPECT_THAT(message, HasSubstr("missing field dram (DramConfig message)"));
}

TEST_F(Validate, FieldsWithDefaultsAndOptionalMessagesMayBeAbsent) {
  config_.clear_simulation();
  config_.mutable_sm()->clear_scheduler();
  config_.mutable_l1()->clear_line_bytes();
  config_.mutable_sm()->clear_opcode_latency_cycles();
  EXPECT_NO_THROW(validate(config_));
}

TEST_F(Validate, ReportsEveryProblem) {
  config_.clear_name();
  config_.mutable_l1()->clear_mshr_entries();
  const std::string message = problem();
  EXPECT_THAT(message, HasSubstr("missing field name"));
  EXPECT_THAT(message, HasSubstr("missing field l1.mshr_entries"));
}

TEST_F(Validate, SharedMemoryLargerThanTheArray) {
  config_.mutable_l1()->set_shared_memory_bytes(200 * 1024);
  config_.mutable_l1()->set_max_shared_per_cta_bytes(100 * 1024);
  EXPECT_THAT(problem(),
              HasSubstr("l1.shared_memory_bytes = 204800 exceeds l1.unified_size_bytes = 196608"));
}

TEST_F(Validate, PerCtaSharedLargerThanTheCarveOut) {
  config_.mutable_l1()->set_max_shared_per_cta_bytes(170 * 1024);
  EXPECT_THAT(problem(), HasSubstr("l1.max_shared_per_cta_bytes = 174080 exceeds "
                                   "l1.shared_memory_bytes = 167936"));
}

TEST_F(Validate, CarveOutOptionAboveTheLargest) {
  config_.mutable_l1()->add_shared_carveout_options_bytes(200 * 1024);
  EXPECT_THAT(problem(), HasSubstr("l1.shared_carveout_options_bytes: 204800 exceeds "
                                   "l1.shared_memory_bytes = 167936 (the largest carve-out)"));
}

TEST_F(Validate, CarveOutOptionLeavingPartOfAWay) {
  config_.mutable_l1()->add_shared_carveout_options_bytes(8 * 1024 + 128);
  EXPECT_THAT(problem(), HasSubstr("l1.shared_carveout_options_bytes: 8320 leaves 188288 bytes "
                                   "of L1 data, not a whole number of ways of the 4 sets of "
                                   "128-byte lines the base data part has"));
}

TEST_F(Validate, PerBankRefreshLongerThanItsInterval) {
  config_.mutable_dram()->set_t_refi_ns(3900);
  config_.mutable_dram()->set_t_rfc_pb_ns(3900);
  EXPECT_THAT(problem(), HasSubstr("dram.t_rfc_pb_ns = 3900 must be below dram.t_refi_ns = 3900"));
}

TEST_F(Validate, L1LineNotAPowerOfTwo) {
  config_.mutable_l1()->set_line_bytes(96);
  EXPECT_THAT(problem(), HasSubstr("l1.line_bytes = 96 is not a power of two"));
}

TEST_F(Validate, L2LineNotAMultipleOfSectors) {
  config_.mutable_l2()->set_sector_bytes(48);
  EXPECT_THAT(problem(),
              HasSubstr("l2.line_bytes = 128 is not a multiple of l2.sector_bytes = 48"));
}

TEST_F(Validate, L1LineNotAMultipleOfSectors) {
  config_.mutable_l1()->set_line_bytes(64);
  config_.mutable_l1()->set_sector_bytes(128);
  EXPECT_THAT(problem(),
              HasSubstr("l1.line_bytes = 64 is not a multiple of l1.sector_bytes = 128"));
}

TEST_F(Validate, L2LineNotAPowerOfTwo) {
  config_.mutable_l2()->set_line_bytes(192);
  EXPECT_THAT(problem(), HasSubstr("l2.line_bytes = 192 is not a power of two"));
}

TEST_F(Validate, L2FetchGranularityOutsideSectorToLine) {
  const std::string expected =
      "is not a power of two from l2.sector_bytes = 32 to l2.line_bytes = 128 (or 0: one sector)";
  for (std::uint32_t bytes : {16u, 48u, 256u}) {
    config_.mutable_l2()->set_fetch_granularity_bytes(bytes);
    EXPECT_THAT(problem(),
                HasSubstr(fmt::format("l2.fetch_granularity_bytes = {} {}", bytes, expected)));
  }
  for (std::uint32_t bytes : {0u, 32u, 64u, 128u}) {
    config_.mutable_l2()->set_fetch_granularity_bytes(bytes);
    EXPECT_NO_THROW(validate(config_)) << bytes;
  }
}

TEST_F(Validate, RequestPortWiderThanThePort) {
  config_.mutable_interconnect()->set_port_bytes_per_cycle(64);
  config_.mutable_interconnect()->set_request_port_bytes_per_cycle(65);
  EXPECT_THAT(problem(), HasSubstr("interconnect.request_port_bytes_per_cycle = 65 is wider than "
                                   "interconnect.port_bytes_per_cycle = 64"));
  for (std::uint32_t bytes : {0u, 1u, 64u}) {
    config_.mutable_interconnect()->set_request_port_bytes_per_cycle(bytes);
    EXPECT_NO_THROW(validate(config_)) << bytes;
  }
}

TEST_F(Validate, L1DataPartNotWholeSets) {
  config_.mutable_l1()->set_associativity(64);  // 28 KB / (128 x 64) = 3.5 sets
  EXPECT_THAT(problem(), HasSubstr("the L1 data part (l1.unified_size_bytes - "
                                   "l1.shared_memory_bytes) = 28672 bytes does not divide into "
                                   "whole sets of l1.line_bytes x l1.associativity = 128 x 64"));
}

TEST_F(Validate, L1DataPartSmallerThanOneSet) {
  config_.mutable_l1()->set_shared_memory_bytes(196608);
  config_.mutable_l1()->set_max_shared_per_cta_bytes(1024);
  EXPECT_THAT(problem(), HasSubstr("= 0 bytes does not divide into whole sets"));
}

TEST_F(Validate, L2SliceNotWholeSets) {
  config_.mutable_l2()->set_associativity(24);  // 256 KB / (128 x 24) is not whole
  EXPECT_THAT(problem(), HasSubstr("one L2 slice (l2.size_bytes / l2.slices) = 262144 bytes does "
                                   "not divide into whole sets"));
}

TEST_F(Validate, L2SizeNotSplitEvenly) {
  config_.mutable_l2()->set_slices(7);
  EXPECT_THAT(problem(),
              HasSubstr("l2.size_bytes = 41943040 does not split evenly over l2.slices = 7"));
}

TEST_F(Validate, MoreThreadsThanWarpSlots) {
  config_.mutable_sm()->set_max_threads(4096);
  EXPECT_THAT(problem(),
              HasSubstr("sm.max_threads = 4096 exceeds sm.max_warps x 32 = 64 x 32 = 2048"));
}

TEST_F(Validate, WarpsNotSpreadOverSubCores) {
  config_.mutable_sm()->set_max_warps(62);
  config_.mutable_sm()->set_max_threads(62 * 32);
  EXPECT_THAT(problem(), HasSubstr("sm.max_warps = 62 is not a multiple of sm.sub_cores = 4"));
}

TEST_F(Validate, MioQueueWatermarkAboveItsEntries) {
  config_.mutable_sm()->mutable_mio_queue()->set_entries(4);
  config_.mutable_sm()->mutable_mio_queue()->set_global_local_entries(6);
  EXPECT_THAT(problem(),
              HasSubstr("sm.mio_queue.global_local_entries = 6 exceeds sm.mio_queue.entries = 4"));
}

TEST_F(Validate, UnknownArch) {
  config_.set_arch("sm_100");
  EXPECT_THAT(problem(), HasSubstr("arch = \"sm_100\" is not one of: sm_60, sm_61, sm_70, sm_75, "
                                   "sm_80, sm_86, sm_89, sm_90"));
}

TEST_F(Validate, UnknownAddressHash) {
  config_.mutable_l2()->set_address_hash("ipolly");
  EXPECT_THAT(problem(),
              HasSubstr("l2.address_hash = \"ipolly\" is not one of: linear, xor, ipoly"));
}

TEST_F(Validate, UnknownDramType) {
  config_.mutable_dram()->set_type("HBM4");
  EXPECT_THAT(problem(), HasSubstr("dram.type = \"HBM4\" is not one of: HBM2, HBM2e, HBM3, "
                                   "HBM3e, GDDR5, GDDR5X, GDDR6, GDDR6X"));
}

TEST_F(Validate, OpcodeLatencyKeysAndValues) {
  (*config_.mutable_sm()->mutable_opcode_latency_cycles())["imad.wide"] = 5;
  (*config_.mutable_sm()->mutable_opcode_latency_cycles())["DFMA"] = 0;
  const std::string message = problem();
  EXPECT_THAT(message, HasSubstr("key \"imad.wide\" is not a base SASS mnemonic"));
  EXPECT_THAT(
      message,
      HasSubstr("sm.opcode_latency_cycles.DFMA = 0 is out of range [1, 10000] core cycles"));
}

TEST_F(Validate, GpcSmsMustAddUpToNumSms) {
  config_ = load_config("h100");
  EXPECT_NO_THROW(validate(config_));
  config_.set_num_sms(114);
  EXPECT_THAT(problem(), HasSubstr("cluster.gpc_sms sums to 18 + 18 + 16 + 16 + 16 + 16 + 16 + 16 "
                                   "= 132 SMs but num_sms = 114: expected the GPCs to hold every "
                                   "SM once"));
  config_.mutable_cluster()->clear_gpc_sms();  // one GPC of every SM
  EXPECT_NO_THROW(validate(config_));
  config_.mutable_cluster()->add_gpc_sms(114);
  config_.mutable_cluster()->add_gpc_sms(0);
  EXPECT_THAT(problem(), HasSubstr("cluster.gpc_sms[1] = 0: expected at least 1 SM in every GPC"));
}

TEST_F(Validate, ClusterFieldsHaveRanges) {
  config_.mutable_cluster()->set_max_cluster_ctas(0);
  config_.mutable_cluster()->set_barrier_latency_cycles(0);
  const std::string message = problem();
  EXPECT_THAT(message, HasSubstr("cluster.max_cluster_ctas = 0 is out of range [1, 64] CTAs"));
  EXPECT_THAT(message,
              HasSubstr("cluster.barrier_latency_cycles = 0 is out of range [1, 100000] core "
                        "cycles"));
}

TEST_F(Validate, UnknownSchedulerPolicy) {
  config_.mutable_sm()->mutable_scheduler()->set_policy("no-such-policy");
  EXPECT_EQ(problem(),
            "sm.scheduler.policy = \"no-such-policy\" is not one of: gto, gty, lrr, "
            "two_level");
}

}  // namespace
}  // namespace sassim::config
