// The memory estimate at load: configs that need more host memory than the limit are
// refused naming the fields that dominate; the limit comes from SASSIM_MEMORY_LIMIT_GB.
#include "configs/memory_estimate.h"

#include <cstdlib>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "configs/config_loader.h"
#include "tests/configs/error_matchers.h"

namespace sassim::config {
namespace {

using ::testing::AllOf;
using testing::error_of;
using ::testing::HasSubstr;
using ::testing::Not;

// Sets the limit variable for one test, and clears it after.
class MemoryEstimate : public ::testing::Test {
 protected:
  void SetUp() override { unsetenv(kMemoryLimitVariable); }
  void TearDown() override { unsetenv(kMemoryLimitVariable); }
};

const std::vector<std::string> kTebibyteL2 = {"l2.size_bytes=1099511627776"};

TEST_F(MemoryEstimate, EveryPresetFitsTheDefaultLimit) {
  for (const std::string& name : preset_names()) {
    double total = 0;
    for (const MemoryPart& part : memory_estimate(load_config(name))) total += part.bytes;
    EXPECT_GT(total, 0) << name;
    EXPECT_LT(total, 1.0 * (1ull << 30)) << name;  // far below 16 GiB
  }
}

TEST_F(MemoryEstimate, ATebibyteL2IsRefusedNamingL2SizeBytes) {
  EXPECT_THAT(error_of([] { load_config("gtx1080", kTebibyteL2); }),
              AllOf(HasSubstr("the model of this config needs an estimated 768.0 GiB of memory, "
                              "more than the limit of 16.0 GiB (SASSIM_MEMORY_LIMIT_GB=769 "
                              "raises it); most of it: l2.size_bytes = 1099511627776 / "
                              "l2.line_bytes = 128: 768.0 GiB"),
                    Not(HasSubstr("num_sms"))));
}

TEST_F(MemoryEstimate, AHugeInstructionCacheOnManySmsIsRefused) {
  EXPECT_THAT(error_of([] {
                load_config("a100", {"num_sms=1024", "sm.frontend.l1i_size_bytes=16777216",
                                     "sm.frontend.l1i_line_bytes=16"});
              }),
              HasSubstr("most of it: sm.frontend.l1i_size_bytes = 16777216 / "
                        "sm.frontend.l1i_line_bytes = 16 x num_sms = 1024: 24.0 GiB"));
}

TEST_F(MemoryEstimate, TheLargestPartsComeFirst) {
  GpuConfig c = load_config("a100");
  c.mutable_l2()->set_size_bytes(std::uint64_t{1} << 36);
  const std::vector<MemoryPart> parts = memory_estimate(c);
  ASSERT_FALSE(parts.empty());
  EXPECT_THAT(parts.front().fields, HasSubstr("l2.size_bytes = 68719476736"));
  EXPECT_EQ(parts.front().bytes, double(std::uint64_t{1} << 36) / 128 * kCacheLineStateBytes);
  for (std::size_t i = 1; i < parts.size(); ++i) EXPECT_GE(parts[i - 1].bytes, parts[i].bytes);
}

TEST_F(MemoryEstimate, RaisingTheLimitAccepts) {
  setenv(kMemoryLimitVariable, "769", 1);
  EXPECT_NO_THROW(load_config("gtx1080", kTebibyteL2));
  setenv(kMemoryLimitVariable, "767.5", 1);
  EXPECT_THAT(error_of([] { load_config("gtx1080", kTebibyteL2); }),
              HasSubstr("more than the limit of 767.5 GiB"));
  // A lower limit refuses a preset.
  setenv(kMemoryLimitVariable, "0.001", 1);
  EXPECT_THAT(error_of([] { load_config("a100"); }), HasSubstr("more than the limit of 1.0 MiB"));
}

TEST_F(MemoryEstimate, AMalformedLimitIsAnError) {
  for (const char* bad : {"lots", "0", "-4", "16GB", "inf"}) {
    setenv(kMemoryLimitVariable, bad, 1);
    EXPECT_THAT(error_of([] { load_config("a100"); }),
                HasSubstr(std::string("SASSIM_MEMORY_LIMIT_GB = '") + bad +
                          "': expected a memory limit in GiB above 0"))
        << bad;
  }
}

}  // namespace
}  // namespace sassim::config
