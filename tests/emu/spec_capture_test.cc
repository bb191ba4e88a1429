// Speculative decoding's kernels (kernels/spec_verify_attention.h, spec_accept.h): the
// committed sm_80 and sm_90 listings executed on small problems pass the capture's check;
// the verification's partials, combined by decode_attention_combine's listing over the
// rows it wrote, give every query row's whole-context attention; the checks reject wrong
// outputs.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "kernels/spec_accept.h"
#include "kernels/spec_verify_attention.h"
#include "kernels/values.h"
#include "tests/emu/listing_capture.h"
#include "traces/emu/suite/byte_vectors.h"
#include "traces/emu/suite/compare.h"

namespace sassim::emu {
namespace {

namespace sv = kernels::spec_verify_attention;
namespace sa = kernels::spec_accept;
using Values = std::vector<std::string_view>;

class SpecCapture : public ::testing::TestWithParam<std::string> {};

TEST_P(SpecCapture, VerifyAttentionMatchesTheReference) {
  // Rows across a split's end (contexts 600, 513, 577), a context inside one split, k = 15.
  for (const Values& values :
       {Values{"3", "600", "3", "1"}, Values{"2", "100", "1", "2"}, Values{"2", "64", "15", "1"}}) {
    SCOPED_TRACE(GetParam() + " spec_verify_attention " + std::string(values[1]));
    const Captured got = capture_listing(GetParam(), "spec_verify_attention", values);
    EXPECT_TRUE(got.check.ok) << got.check.message;
    EXPECT_NE(got.check.message.find(" values match"), std::string::npos) << got.check.message;
  }
}

TEST_P(SpecCapture, TheCombineOfTheRowsGivesEachRowsAttention) {
  const Values values = {"2", "530", "2", "1"};
  const sv::Problem p = sv::parse_problem(values);
  const std::string arch = GetParam();
  const kernels::Launch verify = sv::launch(p);
  DeviceBuffers vb(verify);
  fill_suite_inputs(verify, values, vb);
  CaptureOptions options;
  const auto listing = traces::sass::read_listing(listing_path(arch, "spec_verify_attention"));
  options.sm_version = listing_sm_version(listing, listing_path(arch, "spec_verify_attention"));
  capture(listing, verify, vb, options);

  const kernels::Launch combine = sv::combine_launch(p);
  DeviceBuffers cb(combine);
  cb.arg(0) = vb.arg(5);  // o_partial
  cb.arg(1) = vb.arg(6);  // lse
  cb.arg(2) = vb.arg(7);  // row_lens as the combine's context_lens
  const auto path = listing_path(arch, "decode_attention_combine");
  const auto combine_listing = traces::sass::read_listing(path);
  options.const_bank2 = read_const_bank2(path);
  capture(combine_listing, combine, cb, options);

  std::vector<uint16_t> q(sv::q_bytes(p) / 2);
  std::vector<uint16_t> k(kernels::decode_attention::cache_bytes(p.cache()) / 2), v(k.size());
  kernels::fill_dyadic_bf16(q, 1);
  kernels::fill_dyadic_bf16(k, 2);
  kernels::fill_dyadic_bf16(v, 3);
  const SuiteCheck c = compare_values(read_as<float>(cb.arg(3)), sv::reference_naive(p, q, k, v),
                                      sv::kRelTolerance, sv::kAbsTolerance, "combined rows");
  EXPECT_TRUE(c.ok) << c.message;
}

TEST_P(SpecCapture, ArgmaxAndAcceptMatchTheReference) {
  for (const auto& [kernel, values] :
       std::vector<std::pair<std::string, Values>>{{"spec_argmax", {"5", "1000"}},
                                                   {"spec_argmax", {"3", "257"}},
                                                   {"spec_accept", {"9", "4"}},
                                                   {"spec_accept", {"5", "1"}},
                                                   {"spec_accept", {"17", "15"}}}) {
    SCOPED_TRACE(GetParam() + " " + kernel + " " + std::string(values[1]));
    const Captured got = capture_listing(GetParam(), kernel, values);
    EXPECT_TRUE(got.check.ok) << got.check.message;
    EXPECT_NE(got.check.message.find(" values match"), std::string::npos) << got.check.message;
  }
}

TEST(SpecCaptureChecks, RejectWrongOutputs) {
  const Values values = {"6", "3"};
  const kernels::Launch launch = kernels::describe_launch("spec_accept", values);
  DeviceBuffers b(launch);
  fill_suite_inputs(launch, values, b);
  const sa::AcceptProblem p = sa::parse_accept_problem(values);
  std::vector<int32_t> n(p.batch), tokens(size_t{p.batch} * p.rows());
  sa::reference_accept(p, sa::suite_targets(p), sa::suite_drafts(p), n, tokens);
  write_as(b.arg(2), n);
  write_as(b.arg(3), tokens);
  EXPECT_TRUE(check_suite_outputs(launch, values, b).ok);
  n[3] += 1;
  write_as(b.arg(2), n);
  EXPECT_FALSE(check_suite_outputs(launch, values, b).ok);

  const Values verify_values = {"1", "40", "2", "1"};
  const kernels::Launch verify = kernels::describe_launch("spec_verify_attention", verify_values);
  DeviceBuffers vb(verify);
  fill_suite_inputs(verify, verify_values, vb);
  EXPECT_FALSE(check_suite_outputs(verify, verify_values, vb).ok);  // nothing written
}

INSTANTIATE_TEST_SUITE_P(Archs, SpecCapture, ::testing::Values("sm_80", "sm_90"));

}  // namespace
}  // namespace sassim::emu
