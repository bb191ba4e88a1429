#include "traces/emu/workload/layer_check.h"

#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <span>

#include "ground/error.h"
#include "kernels/bf16_gemm_wgmma.h"
#include "kernels/bf16_gemm_ws.h"
#include "kernels/decode_attention.h"
#include "kernels/decode_attention_tc.h"
#include "kernels/gemm_epilogue.h"
#include "kernels/gemm_problem.h"
#include "kernels/hgemm_mma.h"
#include "kernels/kv_append.h"
#include "kernels/prefill_attention.h"
#include "kernels/rmsnorm.h"
#include "kernels/rope.h"
#include "kernels/skinny_gemm.h"
#include "kernels/spec_verify_attention.h"
#include "kernels/swiglu.h"
#include "kernels/values.h"
#include "traces/emu/suite/compare.h"
#include "traces/emu/suite/moe_io.h"

namespace sassim::emu::workload {
namespace {

namespace k = kernels;
namespace da = kernels::decode_attention;
namespace sv = kernels::spec_verify_attention;

// The arguments of one launch as the reference reads them.
class Args {
 public:
  Args(const PlannedLaunch& l, const DeviceBuffers& m, const std::vector<std::vector<uint8_t>>& b)
      : launch_(l), memory_(m), before_(b) {
    const std::vector<std::string_view> v(l.values.begin(), l.values.end());
    values_ = v;
  }
  k::ParamValues values() const { return values_; }

  // Argument i's bytes after the launch.
  std::span<const uint8_t> now(size_t i) const {
    const int a = memory_.allocation_of_arg.at(i);
    if (a < 0) throw Error(fmt::format("{}: argument {} is not a buffer", launch_.kernel, i));
    const auto& bytes = memory_.memory.buffer(static_cast<size_t>(a));
    const uint64_t offset = memory_.offset_of_arg.empty() ? 0 : memory_.offset_of_arg.at(i);
    return std::span<const uint8_t>(bytes).subspan(offset, launch_.launch.args.at(i).size_bytes);
  }
  // Argument i as the launch found it.
  std::span<const uint8_t> input(size_t i) const {
    return before_.at(i).empty() ? now(i) : std::span<const uint8_t>(before_.at(i));
  }
  template <typename T>
  std::vector<T> input_as(size_t i) const {
    return as<T>(input(i));
  }
  template <typename T>
  std::vector<T> now_as(size_t i) const {
    return as<T>(now(i));
  }

 private:
  template <typename T>
  static std::vector<T> as(std::span<const uint8_t> bytes) {
    std::vector<T> v(bytes.size() / sizeof(T));
    std::memcpy(v.data(), bytes.data(), v.size() * sizeof(T));
    return v;
  }
  const PlannedLaunch& launch_;
  const DeviceBuffers& memory_;
  const std::vector<std::vector<uint8_t>>& before_;
  std::vector<std::string_view> values_;
};

std::vector<float> bf16_floats(const std::vector<uint16_t>& v) {
  return k::bf16_to_floats(v);
}

// C = A Bt^T against a double-precision reference, within K * 2^-23 * sum |a b| (the
// bound of FP32 summation in any order, doubled). Rows of A that are all zero (the
// padding up to the tile) must give exact zeros.
SuiteCheck check_gemm(const Args& a, std::string_view name, float (*to_float)(uint16_t)) {
  const k::GemmProblem p = name == k::hgemm_mma::kKernel ? k::hgemm_mma::parse_problem(a.values())
                           : name == k::bf16_gemm_ws::kKernel
                               ? k::bf16_gemm_ws::parse_problem(a.values())
                               : k::bf16_gemm_wgmma::parse_problem(a.values());
  const std::vector<uint16_t> av = a.input_as<uint16_t>(0), bv = a.input_as<uint16_t>(1);
  const std::vector<float> c = a.now_as<float>(2);
  std::vector<float> bt(bv.size());
  for (size_t i = 0; i < bv.size(); ++i) bt[i] = to_float(bv[i]);
  std::vector<double> row(p.k);
  const double unit = std::ldexp(1.0, -23) * p.k;
  uint64_t checked = 0;
  for (uint64_t i = 0; i < p.m; ++i) {
    bool zero = true;
    for (uint64_t x = 0; x < p.k; ++x) {
      row[x] = to_float(av[i * p.k + x]);
      zero = zero && row[x] == 0;
    }
    for (uint64_t j = 0; j < p.n; ++j) {
      const float got = c[i * p.n + j];
      double want = 0, magnitude = 0;
      if (!zero) {
        const float* b = &bt[j * p.k];
        for (uint64_t x = 0; x < p.k; ++x) {
          const double prod = row[x] * b[x];
          want += prod;
          magnitude += std::fabs(prod);
        }
      }
      if (!(std::fabs(got - want) <= unit * magnitude)) {
        return {false, fmt::format("{}: c[{}][{}] = {}, expected {} within {:.3g}", name, i, j, got,
                                   want, unit * magnitude)};
      }
      ++checked;
    }
  }
  return {true, fmt::format("{}: {} of {} values within the FP32 summation bound", name, checked,
                            checked)};
}

// A split kernel's o_partial (argument 5) and lse (6) against the reference's.
SuiteCheck compare_partials(const Args& a, const da::Partials& want, std::string_view name) {
  std::vector<float> got = a.now_as<float>(5), all = want.o;
  const std::vector<float> got_lse = a.now_as<float>(6);
  got.insert(got.end(), got_lse.begin(), got_lse.end());
  all.insert(all.end(), want.lse.begin(), want.lse.end());
  return compare_values(got, all, da::kRelTolerance, da::kAbsTolerance, name);
}

// spec_verify_attention: the rows' contexts exactly, then the partials.
SuiteCheck check_verify(const Args& a) {
  const auto p = sv::parse_problem(a.values());
  if (a.input_as<int32_t>(4) != sv::context_lens(p) ||
      a.input_as<int32_t>(3) != da::block_tables(p.cache())) {
    return {false, fmt::format("{}: the block tables or context lengths in memory are not the "
                               "problem's (kernels/decode_attention.h)",
                               sv::kKernel)};
  }
  if (a.now_as<int32_t>(7) != sv::row_lens(p)) {
    return {false, fmt::format("{}: row_lens are not each row's context", sv::kKernel)};
  }
  return compare_partials(a,
                          sv::reference_partials(p, a.input_as<uint16_t>(0),
                                                 a.input_as<uint16_t>(1), a.input_as<uint16_t>(2)),
                          sv::kKernel);
}

}  // namespace

SuiteCheck check_layer_launch(const PlannedLaunch& launch, const DeviceBuffers& memory,
                              const std::vector<std::vector<uint8_t>>& before) {
  const Args a(launch, memory, before);
  const std::string_view name = launch.kernel;
  if (name == k::rmsnorm::kKernel) {
    std::vector<uint16_t> y = a.input_as<uint16_t>(2);
    k::rmsnorm::reference(k::rmsnorm::parse_problem(a.values()), a.input_as<uint16_t>(0),
                          a.input_as<uint16_t>(1), y);
    return compare_values(bf16_floats(a.now_as<uint16_t>(2)), bf16_floats(y), 0, 0, name);
  }
  if (name == k::hgemm_mma::kKernel) return check_gemm(a, name, k::half_to_float);
  if (name == k::bf16_gemm_wgmma::kKernel || name == k::bf16_gemm_ws::kKernel)
    return check_gemm(a, name, k::bf16_to_float);
  if (k::skinny_gemm::rows_of(name) != 0) {
    // The reference sums in the kernel's order: the values must be the same bits.
    const auto p = k::skinny_gemm::parse_problem(name, a.values());
    std::vector<float> want(size_t{p.m} * p.n);
    k::skinny_gemm::reference(p, a.input_as<uint16_t>(0), a.input_as<uint16_t>(1), want);
    return compare_values(a.now_as<float>(2), want, 0, 0, name);
  }
  if (name == k::gemm_epilogue::kCastKernel || name == k::gemm_epilogue::kResidualKernel) {
    const bool residual = name == k::gemm_epilogue::kResidualKernel;
    const size_t out = residual ? 2 : 1;
    std::vector<uint16_t> want = a.input_as<uint16_t>(out);
    k::gemm_epilogue::reference(k::gemm_epilogue::parse_problem(a.values()), a.input_as<float>(0),
                                residual ? a.input_as<uint16_t>(1) : std::vector<uint16_t>{}, want);
    return compare_values(bf16_floats(a.now_as<uint16_t>(out)), bf16_floats(want), 0, 0, name);
  }
  if (name == k::rope::kKernel) {
    const auto p = k::rope::parse_problem(a.values());
    const std::vector<int32_t> positions = a.input_as<int32_t>(0);
    const std::vector<float> table = a.input_as<float>(3);
    std::vector<uint16_t> q = a.input_as<uint16_t>(1), kk = a.input_as<uint16_t>(2);
    k::rope::reference(p, positions, table, p.heads, q);
    k::rope::reference(p, positions, table, p.kv_heads, kk);
    std::vector<float> got = bf16_floats(a.now_as<uint16_t>(1)), want = bf16_floats(q);
    const std::vector<float> got_k = bf16_floats(a.now_as<uint16_t>(2)), want_k = bf16_floats(kk);
    got.insert(got.end(), got_k.begin(), got_k.end());
    want.insert(want.end(), want_k.begin(), want_k.end());
    return compare_values(got, want, 0, 0, name);
  }
  if (name == k::kv_append::kKernel) {
    const auto p = k::kv_append::parse_problem(a.values());
    const std::vector<int64_t> slots = a.input_as<int64_t>(4);
    std::vector<uint16_t> kc = a.input_as<uint16_t>(2), vc = a.input_as<uint16_t>(3);
    k::kv_append::reference(p, a.input_as<uint16_t>(0), slots, kc);
    k::kv_append::reference(p, a.input_as<uint16_t>(1), slots, vc);
    std::vector<float> got = bf16_floats(a.now_as<uint16_t>(2)), want = bf16_floats(kc);
    const std::vector<float> got_v = bf16_floats(a.now_as<uint16_t>(3)), want_v = bf16_floats(vc);
    got.insert(got.end(), got_v.begin(), got_v.end());
    want.insert(want.end(), want_v.begin(), want_v.end());
    return compare_values(got, want, 0, 0, name);
  }
  if (name == da::kCombineKernel) {
    // With --draft the combine's context lengths are the verified rows' (row_lens).
    const auto p = da::parse_problem(a.values());
    const std::vector<int32_t> lens = a.input_as<int32_t>(2);
    if (lens != da::context_lens(p) && sv::draft_of_row_lens(p, lens) == 0) {
      return {false, fmt::format("{}: the context lengths in memory are neither the problem's "
                                 "nor a verification's rows' (kernels/decode_attention.h, "
                                 "kernels/spec_verify_attention.h)",
                                 name)};
    }
    const da::Partials partials{a.input_as<float>(0), a.input_as<float>(1)};
    return compare_values(a.now_as<float>(3), sv::reference_combine_rows(p, partials, lens),
                          da::kRelTolerance, da::kAbsTolerance, name);
  }
  if (name == sv::kKernel) return check_verify(a);
  if (name == da::kKernel || name == k::decode_attention_tc::kKernel) {
    const auto p = da::parse_problem(a.values());
    // The references take the problem's block tables and context lengths: the layer
    // wrote those (layer_capture.cc); anything else is not what they would compute.
    if (a.input_as<int32_t>(4) != da::context_lens(p) ||
        a.input_as<int32_t>(3) != da::block_tables(p)) {
      return {false, fmt::format("{}: the block tables or context lengths in memory are not the "
                                 "problem's (kernels/decode_attention.h)",
                                 name)};
    }
    const auto reference =
        name == da::kKernel ? da::reference_partials : k::decode_attention_tc::reference_partials;
    const da::Partials want =
        reference(p, a.input_as<uint16_t>(0), a.input_as<uint16_t>(1), a.input_as<uint16_t>(2));
    return compare_partials(a, want, name);
  }
  if (name == k::swiglu::kKernel) {
    std::vector<uint16_t> out = a.input_as<uint16_t>(1);
    k::swiglu::reference(k::swiglu::parse_problem(a.values()), a.input_as<uint16_t>(0), out);
    return compare_values(bf16_floats(a.now_as<uint16_t>(1)), bf16_floats(out), 0, 0, name);
  }
  if (name == k::prefill_attention::kKernel) {
    const auto p = k::prefill_attention::parse_problem(a.values());
    std::vector<float> spread;
    const std::vector<float> want = k::prefill_attention::reference_blockwise(
        p, a.input_as<uint16_t>(0), a.input_as<uint16_t>(1), a.input_as<uint16_t>(2), &spread);
    std::vector<float> got = bf16_floats(a.now_as<uint16_t>(3));
    got.resize(want.size());  // the output projection's input has padding rows below
    return compare_values(got, want, k::prefill_attention::tolerances(want, spread), name);
  }
  // The experts' GEMMs read a layer's values, not dyadic ones: the FP32 summation bound.
  const MoeArgs moe_args{[&a](size_t i) { return a.input(i); },
                         [&a](size_t i) { return a.now(i); }};
  if (auto c = check_moe_launch(launch.launch, a.values(), moe_args, GemmCheck::kSummationBound))
    return *c;
  throw Error(fmt::format("the layer check has no reference for kernel {}", name));
}

}  // namespace sassim::emu::workload
