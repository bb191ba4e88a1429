// Per-form timing of matrix instructions (sm.tensor_ops) resolved by ExecTiming.
#include <gtest/gtest.h>

#include <string>

#include "ground/error.h"
#include "sim/exec_timing.h"
#include "sim_fixtures.h"

namespace sassim::sim {
namespace {

isa::DecodedOpcode decode(std::string_view text, isa::Arch arch = isa::Arch::kSm80) {
  auto op = isa::OpcodeTable::get(arch).decode(text);
  EXPECT_TRUE(op.has_value()) << text;
  return op.value_or(isa::DecodedOpcode{});
}

class TensorTimingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    config_ = testing::small_config();
    config_.set_arch("sm_80");
    auto* tensor = config_.mutable_sm()->mutable_units()->mutable_tensor();
    tensor->set_latency_cycles(30);
    tensor->set_initiation_interval_cycles(16);
  }
  void add(const std::string& opcode, std::uint32_t latency, std::uint32_t interval) {
    auto* e = config_.mutable_sm()->add_tensor_ops();
    e->set_opcode(opcode);
    e->set_latency_cycles(latency);
    e->set_initiation_interval_cycles(interval);
  }
  std::string error_of(isa::Arch config_arch = isa::Arch::kSm80) {
    try {
      ExecTiming timing(config_.sm(), isa::Arch::kSm80, config_arch);
    } catch (const Error& e) {
      return e.what();
    }
    return "";
  }
  config::GpuConfig config_;
};

TEST_F(TensorTimingTest, EntryReplacesTheClassForItsFormOnly) {
  add("HMMA.16816.F32.BF16", 24, 8);
  ExecTiming timing(config_.sm(), isa::Arch::kSm80, isa::Arch::kSm80);
  const auto bf16 = decode("HMMA.16816.F32.BF16");
  EXPECT_EQ(timing.latency(bf16), 24U);
  EXPECT_EQ(timing.interval(bf16), 8U);
  // Modifiers that are not part of the form do not matter.
  EXPECT_EQ(timing.interval(decode("HMMA.16816.F32.BF16.SAT")), 8U);
  // Another operand type, accumulator, shape or sparsity: the tensor class.
  for (const char* other :
       {"HMMA.16816.F32", "HMMA.16816.F16", "HMMA.1688.F32.BF16", "HMMA.SP.16816.F32.BF16"}) {
    EXPECT_EQ(timing.latency(decode(other)), 30U) << other;
    EXPECT_EQ(timing.interval(decode(other)), 16U) << other;
  }
  // Other units keep their class interval.
  EXPECT_EQ(timing.interval(decode("FFMA")), 2U);
  EXPECT_EQ(timing.interval(decode("FFMA")), timing.interval(isa::UnitClass::kFp32));
}

TEST_F(TensorTimingTest, IntegerForms) {
  add("IMMA.16832.S8.S8", 20, 8);
  ExecTiming timing(config_.sm(), isa::Arch::kSm80, isa::Arch::kSm80);
  EXPECT_EQ(timing.interval(decode("IMMA.16832.U8.S8")), 8U);   // int8 either signedness
  EXPECT_EQ(timing.interval(decode("IMMA.16832.S4.S4")), 16U);  // int4: another form
}

TEST_F(TensorTimingTest, LastEntryOfAFormWinsAndBeatsTheOpcodeOverride) {
  (*config_.mutable_sm()->mutable_opcode_latency_cycles())["DMMA"] = 50;
  add("DMMA.884", 40, 32);
  add("DMMA.884", 33, 16);
  ExecTiming timing(config_.sm(), isa::Arch::kSm80, isa::Arch::kSm80);
  EXPECT_EQ(timing.latency(decode("DMMA.884")), 33U);
  EXPECT_EQ(timing.interval(decode("DMMA.884")), 16U);
}

TEST_F(TensorTimingTest, FormsATraceArchitectureLacksAreSkipped) {
  add("DMMA.884", 33, 16);  // sm_80 and later
  ExecTiming timing(config_.sm(), isa::Arch::kSm70, isa::Arch::kSm80);
  const auto hmma = decode("HMMA.884.F32.F32.STEP0", isa::Arch::kSm70);
  EXPECT_EQ(timing.interval(hmma), 16U);
}

TEST_F(TensorTimingTest, UnknownOrNonMatrixFormsAreErrorsNamingTheField) {
  add("HMMA.16816.F32", 24, 8);
  add("HMMA.99.F32", 24, 8);
  std::string e = error_of();
  EXPECT_NE(e.find("sm.tensor_ops[1].opcode"), std::string::npos) << e;
  EXPECT_NE(e.find("HMMA.99.F32"), std::string::npos) << e;
  config_.mutable_sm()->mutable_tensor_ops(1)->set_opcode("FFMA");
  EXPECT_NE(error_of().find("sm.tensor_ops[1].opcode"), std::string::npos);
  config_.mutable_sm()->mutable_tensor_ops(1)->set_opcode("HMMX.16816");
  EXPECT_NE(error_of().find("sm.tensor_ops[1].opcode"), std::string::npos);
  // DMMA is not an opcode of sm_70.
  config_.mutable_sm()->mutable_tensor_ops(1)->set_opcode("DMMA.884");
  EXPECT_NE(error_of(isa::Arch::kSm70).find("sm.tensor_ops[1].opcode"), std::string::npos);
}

TEST_F(TensorTimingTest, CyclesMustBeSetAndInRange) {
  add("HMMA.16816.F32", 24, 8);
  config_.mutable_sm()->mutable_tensor_ops(0)->clear_latency_cycles();
  EXPECT_NE(error_of().find("sm.tensor_ops[0].latency_cycles"), std::string::npos);
  config_.mutable_sm()->mutable_tensor_ops(0)->set_latency_cycles(24);
  config_.mutable_sm()->mutable_tensor_ops(0)->set_initiation_interval_cycles(0);
  EXPECT_NE(error_of().find("sm.tensor_ops[0].initiation_interval_cycles"), std::string::npos);
  config_.mutable_sm()->mutable_tensor_ops(0)->set_initiation_interval_cycles(2000);
  EXPECT_NE(error_of().find("sm.tensor_ops[0].initiation_interval_cycles"), std::string::npos);
  config_.mutable_sm()->mutable_tensor_ops(0)->set_initiation_interval_cycles(8);
  EXPECT_EQ(error_of(), "");
}

TEST_F(TensorTimingTest, PerNEntryCoversEveryNAndAnExactShapeWins) {
  config_.set_arch("sm_90");
  add("HGMMA.64x128x16.F32.BF16", 20, 4);
  config_.mutable_sm()->mutable_tensor_ops(0)->set_latency_cycles_per_n(0.5);
  config_.mutable_sm()->mutable_tensor_ops(0)->set_initiation_interval_cycles_per_n(0.5);
  add("HGMMA.64x96x16.F32.BF16", 70, 60);  // one exact shape
  ExecTiming timing(config_.sm(), isa::Arch::kSm90, isa::Arch::kSm90);
  auto hgmma = [](const std::string& text) { return decode(text, isa::Arch::kSm90); };
  EXPECT_EQ(timing.latency(hgmma("HGMMA.64x256x16.F32.BF16")), 128U);
  EXPECT_EQ(timing.interval(hgmma("HGMMA.64x256x16.F32.BF16")), 128U);
  EXPECT_EQ(timing.latency(hgmma("HGMMA.64x24x16.F32.BF16")), 20U);  // floor
  EXPECT_EQ(timing.interval(hgmma("HGMMA.64x24x16.F32.BF16")), 12U);
  EXPECT_EQ(timing.latency(hgmma("HGMMA.64x96x16.F32.BF16")), 70U);
  EXPECT_EQ(timing.interval(hgmma("HGMMA.64x96x16.F32.BF16")), 60U);
  // Other types, accumulators or sparsity: not covered (the tensor class).
  EXPECT_EQ(timing.latency(hgmma("HGMMA.64x256x16.F32")), 30U);
  EXPECT_EQ(timing.latency(hgmma("HGMMA.64x256x32.F32.BF16.SP")), 30U);
}

TEST_F(TensorTimingTest, PerNFieldsNeedAWarpgroupForm) {
  add("HMMA.16816.F32", 24, 8);
  config_.mutable_sm()->mutable_tensor_ops(0)->set_latency_cycles_per_n(0.5);
  const std::string e = error_of();
  EXPECT_NE(e.find("sm.tensor_ops[0]"), std::string::npos) << e;
  EXPECT_NE(e.find("warpgroup form"), std::string::npos) << e;
}

}  // namespace
}  // namespace sassim::sim
