#include "traces/emu/suite/llm_io.h"
#include "traces/emu/suite/byte_vectors.h"

#include <cstring>
#include <vector>

#include "kernels/decode_attention.h"
#include "kernels/decode_attention_tc.h"
#include "kernels/gemm_epilogue.h"
#include "kernels/kv_append.h"
#include "kernels/rmsnorm.h"
#include "kernels/rope.h"
#include "kernels/skinny_gemm.h"
#include "kernels/swiglu.h"
#include "kernels/values.h"
#include "traces/emu/suite/compare.h"

namespace sassim::emu {
namespace {

namespace k = kernels;
namespace da = kernels::decode_attention;

std::vector<uint16_t> bf16s(size_t count, uint64_t seed) {
  std::vector<uint16_t> v(count);
  k::fill_dyadic_bf16(v, seed);
  return v;
}
std::vector<uint16_t> bf16s(DeviceBuffers& b, size_t arg, uint64_t seed) {
  return bf16s(b.arg(arg).size() / 2, seed);
}
std::vector<float> bf16_floats(const std::vector<uint8_t>& bytes) {
  return k::bf16_to_floats(read_as<uint16_t>(bytes));
}

// Two outputs compared as one list.
SuiteCheck compare_pair(std::vector<float> got, const std::vector<float>& got2,
                        std::vector<float> want, const std::vector<float>& want2, double rel,
                        double abs, std::string_view what) {
  got.insert(got.end(), got2.begin(), got2.end());
  want.insert(want.end(), want2.begin(), want2.end());
  return compare_values(got, want, rel, abs, what);
}

// decode_attention's inputs as its program makes them: Q, K and V caches (seeds 1, 2, 3).
struct AttentionInputs {
  std::vector<uint16_t> q, k, v;
  explicit AttentionInputs(const da::Problem& p)
      : q(bf16s(size_t{p.batch} * p.heads() * da::kHeadDim, 1)),
        k(bf16s(da::cache_bytes(p) / 2, 2)),
        v(bf16s(da::cache_bytes(p) / 2, 3)) {}
};

}  // namespace

bool fill_llm_inputs(const k::Launch& launch, k::ParamValues values, DeviceBuffers& b) {
  const std::string_view name = launch.kernel;
  if (name == k::rmsnorm::kKernel) {
    write_as(b.arg(0), bf16s(b, 0, 1));
    write_as(b.arg(1), bf16s(b, 1, 2));
  } else if (name == k::swiglu::kKernel) {
    write_as(b.arg(0), bf16s(b, 0, 1));
  } else if (k::skinny_gemm::rows_of(name) != 0) {
    write_as(b.arg(0), bf16s(b, 0, 1));
    write_as(b.arg(1), bf16s(b, 1, 2));
  } else if (name == k::rope::kKernel) {
    const auto p = k::rope::parse_problem(values);
    write_as(b.arg(0), k::rope::positions(p));
    write_as(b.arg(1), bf16s(b, 1, 1));
    write_as(b.arg(2), bf16s(b, 2, 2));
    write_as(b.arg(3), k::rope::cos_sin_table(p));
  } else if (name == k::kv_append::kKernel) {
    write_as(b.arg(0), bf16s(b, 0, 1));
    write_as(b.arg(1), bf16s(b, 1, 2));
    write_as(b.arg(4), k::kv_append::slot_mapping(k::kv_append::parse_problem(values)));
  } else if (name == da::kKernel || name == k::decode_attention_tc::kKernel) {
    const auto p = da::parse_problem(values);
    const AttentionInputs in(p);
    write_as(b.arg(0), in.q);
    write_as(b.arg(1), in.k);
    write_as(b.arg(2), in.v);
    write_as(b.arg(3), da::block_tables(p));
    write_as(b.arg(4), da::context_lens(p));
  } else if (name == da::kCombineKernel) {
    // The partials the decode kernel would have written, from its reference.
    const auto p = da::parse_problem(values);
    const AttentionInputs in(p);
    const da::Partials partials = da::reference_partials(p, in.q, in.k, in.v);
    write_as(b.arg(0), partials.o);
    write_as(b.arg(1), partials.lse);
    write_as(b.arg(2), da::context_lens(p));
  } else if (name == k::gemm_epilogue::kCastKernel || name == k::gemm_epilogue::kResidualKernel) {
    std::vector<float> c(b.arg(0).size() / 4);
    k::fill_dyadic(c, 1);
    write_as(b.arg(0), c);
    if (name == k::gemm_epilogue::kResidualKernel) write_as(b.arg(1), bf16s(b, 1, 2));
  } else {
    return false;
  }
  return true;
}

std::optional<SuiteCheck> check_llm_outputs(const k::Launch& launch, k::ParamValues values,
                                            DeviceBuffers& b) {
  const std::string_view name = launch.kernel;
  if (name == k::rmsnorm::kKernel) {
    std::vector<uint16_t> y(b.arg(2).size() / 2);
    k::rmsnorm::reference(k::rmsnorm::parse_problem(values), bf16s(b, 0, 1), bf16s(b, 1, 2), y);
    return compare_values(bf16_floats(b.arg(2)), k::bf16_to_floats(y), 0, 0, name);
  }
  if (name == k::swiglu::kKernel) {
    std::vector<uint16_t> out(b.arg(1).size() / 2);
    k::swiglu::reference(k::swiglu::parse_problem(values), bf16s(b, 0, 1), out);
    return compare_values(bf16_floats(b.arg(1)), k::bf16_to_floats(out), 0, 0, name);
  }
  if (name == k::rope::kKernel) {
    const auto p = k::rope::parse_problem(values);
    const auto pos = k::rope::positions(p);
    const auto table = k::rope::cos_sin_table(p);
    std::vector<uint16_t> q = bf16s(b, 1, 1), kk = bf16s(b, 2, 2);
    k::rope::reference(p, pos, table, p.heads, q);
    k::rope::reference(p, pos, table, p.kv_heads, kk);
    return compare_pair(bf16_floats(b.arg(1)), bf16_floats(b.arg(2)), k::bf16_to_floats(q),
                        k::bf16_to_floats(kk), 0, 0, name);
  }
  if (k::skinny_gemm::rows_of(name) != 0) {
    std::vector<float> want(b.arg(2).size() / 4);
    k::skinny_gemm::reference(k::skinny_gemm::parse_problem(name, values), bf16s(b, 0, 1),
                              bf16s(b, 1, 2), want);
    return compare_values(read_as<float>(b.arg(2)), want, 0, 0, name);
  }
  if (name == k::kv_append::kKernel) {
    const auto p = k::kv_append::parse_problem(values);
    const auto slots = k::kv_append::slot_mapping(p);
    std::vector<uint16_t> kc(k::kv_append::cache_bytes(p) / 2), vc(kc.size());
    k::kv_append::reference(p, bf16s(b, 0, 1), slots, kc);
    k::kv_append::reference(p, bf16s(b, 1, 2), slots, vc);
    return compare_pair(bf16_floats(b.arg(2)), bf16_floats(b.arg(3)), k::bf16_to_floats(kc),
                        k::bf16_to_floats(vc), 0, 0, name);
  }
  if (name == da::kKernel || name == da::kCombineKernel ||
      name == k::decode_attention_tc::kKernel) {
    const auto p = da::parse_problem(values);
    const AttentionInputs in(p);
    const da::Partials want = name == k::decode_attention_tc::kKernel
                                  ? k::decode_attention_tc::reference_partials(p, in.q, in.k, in.v)
                                  : da::reference_partials(p, in.q, in.k, in.v);
    if (name != da::kCombineKernel) {
      return compare_pair(read_as<float>(b.arg(5)), read_as<float>(b.arg(6)), want.o, want.lse,
                          da::kRelTolerance, da::kAbsTolerance, name);
    }
    return compare_values(read_as<float>(b.arg(3)), da::reference_combine(p, want),
                          da::kRelTolerance, da::kAbsTolerance, name);
  }
  if (name == k::gemm_epilogue::kCastKernel || name == k::gemm_epilogue::kResidualKernel) {
    const bool residual = name == k::gemm_epilogue::kResidualKernel;
    std::vector<float> c(b.arg(0).size() / 4);
    k::fill_dyadic(c, 1);
    const size_t out = residual ? 2 : 1;
    std::vector<uint16_t> want(b.arg(out).size() / 2);
    k::gemm_epilogue::reference(k::gemm_epilogue::parse_problem(values), c,
                                residual ? bf16s(b, 1, 2) : std::vector<uint16_t>{}, want);
    return compare_values(bf16_floats(b.arg(out)), k::bf16_to_floats(want), 0, 0, name);
  }
  return std::nullopt;
}

}  // namespace sassim::emu
