#include "traces/emu/suite/moe_io.h"
#include "traces/emu/suite/byte_vectors.h"

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "kernels/moe_gather.h"
#include "kernels/moe_grouped_gemm.h"
#include "kernels/moe_routing.h"
#include "kernels/values.h"
#include "traces/emu/suite/compare.h"

namespace sassim::emu {
namespace {

namespace k = kernels;
namespace moe = kernels::moe;

bool is_moe(std::string_view name) {
  return name == moe::kTopkKernel || name == moe::kAlignKernel || name == moe::kPermuteKernel ||
         name == moe::kGroupedGemmKernel || name == moe::kUnpermuteKernel;
}

template <typename T>
std::vector<T> as(std::span<const uint8_t> bytes) {
  std::vector<T> v(bytes.size() / sizeof(T));
  std::memcpy(v.data(), bytes.data(), v.size() * sizeof(T));
  return v;
}

template <typename T>
void append(std::vector<float>& out, const std::vector<T>& v) {
  for (const T x : v) out.push_back(static_cast<float>(x));
}

std::vector<float> bf16_floats(std::span<const uint8_t> bytes) {
  return k::bf16_to_floats(as<uint16_t>(bytes));
}

std::vector<uint16_t> bf16s(size_t count, uint64_t seed) {
  std::vector<uint16_t> v(count);
  k::fill_dyadic_bf16(v, seed);
  return v;
}

// The suite's routing: example_topk and its alignment.
struct Example {
  moe::TopK topk;
  moe::Alignment alignment;
  explicit Example(const moe::Routing& r)
      : topk(moe::example_topk(r)), alignment(moe::align_reference(r, topk.ids)) {}
};

SuiteCheck check_grouped_gemm(const moe::GroupedGemm& g, const MoeArgs& args, GemmCheck mode) {
  const moe::Routing& r = g.routing;
  const std::vector<uint16_t> a = as<uint16_t>(args.before(0)), w = as<uint16_t>(args.before(1));
  const std::vector<int32_t> tiles = as<int32_t>(args.before(3));
  const int32_t total = as<int32_t>(args.before(4)).at(0);
  std::vector<float> want = as<float>(args.before(2));
  std::vector<double> tolerance(want.size(), 0.0);
  const double unit = mode == GemmCheck::kExact ? 0.0 : std::ldexp(1.0, -23) * g.k;
  std::vector<double> row(g.k);
  for (uint32_t tile = 0; tile < r.max_tiles(); ++tile) {
    if (static_cast<int64_t>(tile) * moe::kRowTile >= total || tiles.at(tile) < 0) continue;
    const uint16_t* we = &w.at(static_cast<size_t>(tiles[tile]) * g.n * g.k);
    for (uint32_t i = tile * moe::kRowTile; i < (tile + 1) * moe::kRowTile; ++i) {
      for (uint32_t x = 0; x < g.k; ++x) row[x] = k::bf16_to_float(a[size_t{i} * g.k + x]);
      for (uint32_t j = 0; j < g.n; ++j) {
        double sum = 0, magnitude = 0;
        for (uint32_t x = 0; x < g.k; ++x) {
          const double prod = row[x] * k::bf16_to_float(we[size_t{j} * g.k + x]);
          sum += prod;
          magnitude += std::fabs(prod);
        }
        want[size_t{i} * g.n + j] = static_cast<float>(sum);
        tolerance[size_t{i} * g.n + j] = unit * magnitude;
      }
    }
  }
  return compare_values(as<float>(args.after(2)), want, tolerance, moe::kGroupedGemmKernel);
}

}  // namespace

bool fill_moe_inputs(const k::Launch& launch, k::ParamValues values, DeviceBuffers& b) {
  const std::string_view name = launch.kernel;
  if (!is_moe(name)) return false;
  if (name == moe::kTopkKernel) {
    std::vector<float> logits(b.arg(0).size() / 4);
    k::fill_dyadic(logits, 1);
    write_as(b.arg(0), logits);
    return true;
  }
  if (name == moe::kAlignKernel) {
    write_as(b.arg(0), moe::example_topk(moe::parse_routing(values, name)).ids);
    return true;
  }
  if (name == moe::kGroupedGemmKernel) {
    const Example ex(moe::parse_grouped_gemm(values).routing);
    write_as(b.arg(0), bf16s(b.arg(0).size() / 2, 1));
    write_as(b.arg(1), bf16s(b.arg(1).size() / 2, 2));
    write_as(b.arg(3), ex.alignment.tile_experts);
    write_as(b.arg(4), std::vector<int32_t>{ex.alignment.total});
    return true;
  }
  const Example ex(moe::parse_gather(values, name).routing);
  if (name == moe::kPermuteKernel) {
    write_as(b.arg(0), bf16s(b.arg(0).size() / 2, 1));
    write_as(b.arg(1), ex.alignment.sorted_ids);
    write_as(b.arg(2), std::vector<int32_t>{ex.alignment.total});
  } else {
    std::vector<float> c(b.arg(0).size() / 4);
    k::fill_dyadic(c, 2);
    write_as(b.arg(0), c);
    write_as(b.arg(1), ex.alignment.pair_rows);
    write_as(b.arg(2), ex.topk.weights);
    write_as(b.arg(3), bf16s(b.arg(3).size() / 2, 3));
  }
  return true;
}

std::optional<SuiteCheck> check_moe_outputs(const k::Launch& launch, k::ParamValues values,
                                            DeviceBuffers& b) {
  if (!is_moe(launch.kernel)) return std::nullopt;
  // The outputs started as zeros; the inputs are unchanged.
  std::vector<std::vector<uint8_t>> zeros(launch.arguments().size());
  const MoeArgs args{[&](size_t i) -> std::span<const uint8_t> {
                       const k::Access access = launch.arguments()[i].access;
                       if (access != k::Access::kWrite) return b.arg(i);
                       zeros[i].assign(b.arg(i).size(), 0);
                       return zeros[i];
                     },
                     [&](size_t i) -> std::span<const uint8_t> { return b.arg(i); }};
  return check_moe_launch(launch, values, args, GemmCheck::kExact);
}

std::optional<SuiteCheck> check_moe_launch(const k::Launch& launch, k::ParamValues values,
                                           const MoeArgs& args, GemmCheck gemm) {
  const std::string_view name = launch.kernel;
  if (!is_moe(name)) return std::nullopt;
  if (name == moe::kTopkKernel) {
    const moe::Routing r = moe::parse_routing(values, name);
    const moe::TopK want = moe::topk_reference(r, as<float>(args.before(0)));
    std::vector<float> got, expected;
    append(got, as<int32_t>(args.after(1)));
    append(got, as<float>(args.after(2)));
    append(expected, want.ids);
    append(expected, want.weights);
    return compare_values(got, expected, 0, 0, name);
  }
  if (name == moe::kAlignKernel) {
    const moe::Routing r = moe::parse_routing(values, name);
    const moe::Alignment want = moe::align_reference(r, as<int32_t>(args.before(0)));
    std::vector<float> got, expected;
    for (size_t i = 1; i <= 4; ++i) append(got, as<int32_t>(args.after(i)));
    append(expected, want.sorted_ids);
    append(expected, want.tile_experts);
    append(expected, want.pair_rows);
    append(expected, std::vector<int32_t>{want.total});
    return compare_values(got, expected, 0, 0, name);
  }
  if (name == moe::kGroupedGemmKernel) {
    return check_grouped_gemm(moe::parse_grouped_gemm(values), args, gemm);
  }
  const moe::Gather g = moe::parse_gather(values, name);
  if (name == moe::kPermuteKernel) {
    std::vector<uint16_t> rows = as<uint16_t>(args.before(3));
    moe::permute_reference(g, as<uint16_t>(args.before(0)), as<int32_t>(args.before(1)),
                           as<int32_t>(args.before(2)).at(0), rows);
    return compare_values(bf16_floats(args.after(3)), k::bf16_to_floats(rows), 0, 0, name);
  }
  std::vector<uint16_t> out = as<uint16_t>(args.before(4));
  moe::unpermute_reference(g, as<float>(args.before(0)), as<int32_t>(args.before(1)),
                           as<float>(args.before(2)), as<uint16_t>(args.before(3)), out);
  return compare_values(bf16_floats(args.after(4)), k::bf16_to_floats(out), 0, 0, name);
}

}  // namespace sassim::emu
