#include "traces/emu/suite/spec_io.h"

#include <vector>

#include "kernels/spec_accept.h"
#include "kernels/spec_verify_attention.h"
#include "kernels/values.h"
#include "traces/emu/suite/byte_vectors.h"
#include "traces/emu/suite/compare.h"

namespace sassim::emu {
namespace {

namespace k = kernels;
namespace sv = kernels::spec_verify_attention;
namespace sa = kernels::spec_accept;

std::vector<uint16_t> bf16s(size_t count, uint64_t seed) {
  std::vector<uint16_t> v(count);
  k::fill_dyadic_bf16(v, seed);
  return v;
}

// Token ids and counts (below 2^24) as floats, compared exactly.
std::vector<float> as_floats(const std::vector<int32_t>& v) {
  return {v.begin(), v.end()};
}

// spec_verify_attention's inputs as its program makes them: Q, K and V (seeds 1, 2, 3).
struct VerifyInputs {
  std::vector<uint16_t> q, k, v;
  explicit VerifyInputs(const sv::Problem& p)
      : q(bf16s(sv::q_bytes(p) / 2, 1)),
        k(bf16s(k::decode_attention::cache_bytes(p.cache()) / 2, 2)),
        v(bf16s(k::decode_attention::cache_bytes(p.cache()) / 2, 3)) {}
};

}  // namespace

bool fill_spec_inputs(const k::Launch& launch, k::ParamValues values, DeviceBuffers& b) {
  const std::string_view name = launch.kernel;
  if (name == sv::kKernel) {
    const sv::Problem p = sv::parse_problem(values);
    const VerifyInputs in(p);
    write_as(b.arg(0), in.q);
    write_as(b.arg(1), in.k);
    write_as(b.arg(2), in.v);
    write_as(b.arg(3), k::decode_attention::block_tables(p.cache()));
    write_as(b.arg(4), sv::context_lens(p));
  } else if (name == sa::kArgmaxKernel) {
    std::vector<float> logits(b.arg(0).size() / 4);
    k::fill_dyadic(logits, 1);
    write_as(b.arg(0), logits);
  } else if (name == sa::kAcceptKernel) {
    const sa::AcceptProblem p = sa::parse_accept_problem(values);
    write_as(b.arg(0), sa::suite_targets(p));
    write_as(b.arg(1), sa::suite_drafts(p));
  } else {
    return false;
  }
  return true;
}

std::optional<SuiteCheck> check_spec_outputs(const k::Launch& launch, k::ParamValues values,
                                             DeviceBuffers& b) {
  const std::string_view name = launch.kernel;
  if (name == sv::kKernel) {
    const sv::Problem p = sv::parse_problem(values);
    const VerifyInputs in(p);
    const k::decode_attention::Partials want = sv::reference_partials(p, in.q, in.k, in.v);
    const SuiteCheck rows =
        compare_values(as_floats(read_as<int32_t>(b.arg(7))), as_floats(sv::row_lens(p)), 0, 0,
                       "spec_verify_attention row_lens");
    if (!rows.ok) return rows;
    std::vector<float> got = read_as<float>(b.arg(5)), lse = read_as<float>(b.arg(6));
    got.insert(got.end(), lse.begin(), lse.end());
    std::vector<float> expected = want.o;
    expected.insert(expected.end(), want.lse.begin(), want.lse.end());
    return compare_values(got, expected, sv::kRelTolerance, sv::kAbsTolerance, name);
  }
  if (name == sa::kArgmaxKernel) {
    const sa::ArgmaxProblem p = sa::parse_argmax_problem(values);
    std::vector<float> logits(b.arg(0).size() / 4);
    k::fill_dyadic(logits, 1);
    std::vector<int32_t> want(p.rows);
    sa::reference_argmax(p, logits, want);
    return compare_values(as_floats(read_as<int32_t>(b.arg(1))), as_floats(want), 0, 0, name);
  }
  if (name == sa::kAcceptKernel) {
    const sa::AcceptProblem p = sa::parse_accept_problem(values);
    std::vector<int32_t> n(p.batch), tokens(size_t{p.batch} * p.rows());
    sa::reference_accept(p, sa::suite_targets(p), sa::suite_drafts(p), n, tokens);
    std::vector<float> got = as_floats(read_as<int32_t>(b.arg(2)));
    const std::vector<float> got_tokens = as_floats(read_as<int32_t>(b.arg(3)));
    got.insert(got.end(), got_tokens.begin(), got_tokens.end());
    std::vector<float> want = as_floats(n);
    want.insert(want.end(), tokens.begin(), tokens.end());
    return compare_values(got, want, 0, 0, name);
  }
  return std::nullopt;
}

}  // namespace sassim::emu
