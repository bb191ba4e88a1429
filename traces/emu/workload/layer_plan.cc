#include "traces/emu/workload/layer_plan.h"

#include <fmt/format.h>

#include <bit>
#include <cmath>
#include <stdexcept>

#include "ground/error.h"
#include "kernels/bf16_gemm_wgmma.h"
#include "kernels/decode_attention.h"
#include "kernels/gemm_epilogue.h"
#include "kernels/hgemm_mma.h"
#include "kernels/kv_append.h"
#include "kernels/rmsnorm.h"
#include "kernels/rope.h"
#include "kernels/suite.h"
#include "kernels/swiglu.h"

namespace sassim::emu::workload {
namespace {

namespace k = kernels;
namespace da = kernels::decode_attention;

constexpr uint32_t kHeadDim = 128;
constexpr uint32_t kGemmTile = 128;  // hgemm_mma and bf16_gemm_wgmma: 128 x 128 CTA tiles
// Bytes a layer may allocate: the capture holds all of it in host memory.
constexpr uint64_t kMaxLayerBytes = uint64_t{32} << 30;

void check_options(const LayerOptions& o) {
  if (o.phase == Phase::kPrefill) {
    throw Error(
        "--phase prefill: not available yet: a prefill layer needs attention over many query "
        "rows with a causal mask, grouped-query heads, head dimension 128 and BF16; the suite's "
        "flash_attention_fwd has head dimension 64, FP16 inputs, no causal mask and one KV head "
        "per query head (kernels/flash_attention.h). Use --phase decode");
  }
  if (o.sm_version != 80 && o.sm_version != 86 && o.sm_version != 89 && o.sm_version != 90) {
    throw Error(
        fmt::format("--arch sm_{}: expected sm_80, sm_86, sm_89 or sm_90 (the "
                    "architectures of the kernel suite's listings)",
                    o.sm_version));
  }
  if (o.batch == 0 || o.batch > 4096)
    throw Error(fmt::format("--batch {}: expected 1 to 4096 sequences", o.batch));
  if (o.context == 0 || o.context > 131072) {
    throw Error(
        fmt::format("--context {}: expected 1 to 131072 tokens (the new one included)", o.context));
  }
  if (o.hidden == 0 || o.hidden % kGemmTile != 0) {
    throw Error(
        fmt::format("--hidden {}: expected a positive multiple of 128 (the GEMMs' "
                    "N tile: the output and down projections have N = hidden)",
                    o.hidden));
  }
  if (o.kv_heads == 0) throw Error("--kv-heads 0: expected at least one KV head");
  if (o.heads % o.kv_heads != 0) {
    throw Error(
        fmt::format("--heads {} is not a multiple of --kv-heads {}: grouped-query "
                    "attention shares each KV head among heads / kv-heads query heads",
                    o.heads, o.kv_heads));
  }
  if (o.heads != da::kGroup * o.kv_heads) {
    throw Error(
        fmt::format("--heads {} with --kv-heads {}: decode_attention groups exactly {} "
                    "query heads per KV head (kernels/decode_attention.h), so --heads "
                    "must be {}",
                    o.heads, o.kv_heads, da::kGroup, da::kGroup * o.kv_heads));
  }
  if (o.ffn == 0 || o.ffn % 64 != 0) {
    throw Error(
        fmt::format("--ffn {}: expected a positive multiple of 64 (the gate/up GEMM's N "
                    "is 2 x ffn, a multiple of its 128 tile; the down GEMM's K is ffn, "
                    "a multiple of 64)",
                    o.ffn));
  }
}

// 2^-floor(log2(K) / 2): weights of about 1/sqrt(K) keep the projections' outputs of the
// order of their inputs (a Gaussian initialisation's standard deviation).
float weight_scale(uint32_t k) {
  const int e = static_cast<int>(std::bit_width(k) - 1) / 2;
  return std::ldexp(1.0F, -e);
}

std::string u(uint64_t v) {
  return std::to_string(v);
}

class Builder {
 public:
  explicit Builder(LayerPlan& plan) : plan_(plan) {}

  int tensor(std::string name, std::string shape, uint64_t bytes, Role role,
             Fill fill = Fill::kZero, uint64_t seed = 0, float scale = 1) {
    plan_.tensors.push_back(
        Tensor{std::move(name), std::move(shape), bytes, role, fill, seed, scale});
    return static_cast<int>(plan_.tensors.size() - 1);
  }

  // A launch of `kernel` on `values`, its buffer arguments bound in order to `bound`.
  void launch(std::string step, std::string_view kernel, std::vector<std::string> values,
              std::vector<Binding> bound) {
    PlannedLaunch l;
    l.step = std::move(step);
    l.kernel = std::string(kernel);
    l.values = std::move(values);
    const std::vector<std::string_view> views(l.values.begin(), l.values.end());
    try {
      l.launch = k::describe_launch(kernel, views);
    } catch (const std::invalid_argument& e) {
      throw Error(fmt::format("{} ({}): {}", l.step, kernel, e.what()));
    }
    const int sm = plan_.options.sm_version;
    l.listing_folder = kernel == k::bf16_gemm_wgmma::kKernel ? "sm_90a" : fmt::format("sm_{}", sm);
    size_t next = 0;
    for (const k::Arg& a : l.launch.arguments()) {
      if (a.kind == k::ArgKind::kBuffer || a.kind == k::ArgKind::kTensorMap) {
        if (next >= bound.size()) {
          throw Error(fmt::format("{} ({}): argument {} is not bound", l.step, kernel, a.name));
        }
        l.bindings.push_back(bound[next++]);
      } else {
        l.bindings.push_back(Binding{});
      }
    }
    if (next != bound.size())
      throw Error(
          fmt::format("{} ({}): {} bindings for {} buffers", l.step, kernel, bound.size(), next));
    plan_.launches.push_back(std::move(l));
  }

 private:
  LayerPlan& plan_;
};

}  // namespace

int LayerPlan::tensor(std::string_view name) const {
  for (size_t i = 0; i < tensors.size(); ++i)
    if (tensors[i].name == name) return static_cast<int>(i);
  throw Error(fmt::format("the layer has no tensor {}", name));
}

uint64_t LayerPlan::total_bytes() const {
  uint64_t total = 0;
  for (const Tensor& t : tensors) total += t.bytes;
  return total;
}

LayerPlan plan_dense_layer(const LayerOptions& o) {
  check_options(o);
  LayerPlan plan;
  plan.options = o;
  const uint32_t t = o.batch;
  const uint32_t m = k::ceil_div(t, kGemmTile) * kGemmTile;
  plan.tokens = t;
  plan.padded_rows = m;
  const uint64_t h = o.hidden, q_dim = uint64_t{o.heads} * kHeadDim,
                 kv_dim = uint64_t{o.kv_heads} * kHeadDim, qkv = q_dim + 2 * kv_dim, f = o.ffn;
  const bool wgmma = o.sm_version >= 90;
  const std::string_view gemm = wgmma ? k::bf16_gemm_wgmma::kKernel : k::hgemm_mma::kKernel;
  const std::string wtype = wgmma ? "bf16" : "fp16";
  const da::Problem attention{.batch = o.batch, .context = o.context, .kv_heads = o.kv_heads};
  const uint64_t cache_bytes = da::cache_bytes(attention);
  const uint64_t partials = da::partial_count(attention);

  Builder b(plan);
  auto dims = [](uint64_t rows, uint64_t cols, std::string_view type) {
    return fmt::format("[{}][{}] {}", rows, cols, type);
  };
  // Activations and weights, in the order the layer meets them.
  const int x = b.tensor("x", dims(t, h, "bf16"), t * h * 2, Role::kActivation, Fill::kBf16, 1);
  const int w_attn_norm = b.tensor("attn_norm.weight", fmt::format("[{}] bf16", h), h * 2,
                                   Role::kWeight, Fill::kBf16, 11);
  const int xn = b.tensor("attn_norm.out", dims(m, h, "bf16"), m * h * 2, Role::kActivation);
  const int w_qkv = b.tensor("qkv_proj.weight", dims(qkv, h, wtype), qkv * h * 2, Role::kWeight,
                             Fill::kWeight, 12, weight_scale(o.hidden));
  const int qkv32 = b.tensor("qkv_proj.out", dims(m, qkv, "fp32"), m * qkv * 4, Role::kScratch);
  const int q = b.tensor("q", dims(t, q_dim, "bf16"), t * q_dim * 2, Role::kActivation);
  const int kk = b.tensor("k", dims(t, kv_dim, "bf16"), t * kv_dim * 2, Role::kActivation);
  const int v = b.tensor("v", dims(t, kv_dim, "bf16"), t * kv_dim * 2, Role::kActivation);
  const int positions =
      b.tensor("positions", fmt::format("[{}] int32", t), t * 4, Role::kIndex, Fill::kPositions);
  const int cos_sin = b.tensor("rope.cos_sin", dims(o.context, kHeadDim, "fp32"),
                               uint64_t{o.context} * kHeadDim * 4, Role::kWeight, Fill::kCosSin);
  const std::string cache_shape = fmt::format("[{}][{}][{}][{}] bf16", attention.num_pages(),
                                              o.kv_heads, da::kPageSize, kHeadDim);
  const int k_cache = b.tensor("k_cache", cache_shape, cache_bytes, Role::kCache, Fill::kBf16, 2);
  const int v_cache = b.tensor("v_cache", cache_shape, cache_bytes, Role::kCache, Fill::kBf16, 3);
  const int slots =
      b.tensor("slot_mapping", fmt::format("[{}] int64", t), t * 8, Role::kIndex, Fill::kSlots);
  const int tables =
      b.tensor("block_tables", dims(t, attention.max_pages(), "int32"),
               uint64_t{t} * attention.max_pages() * 4, Role::kIndex, Fill::kBlockTables);
  const int lens = b.tensor("context_lens", fmt::format("[{}] int32", t), t * 4, Role::kIndex,
                            Fill::kContextLens);
  const int o_partial =
      b.tensor("attention.o_partial",
               fmt::format("[{}][{}][{}][{}] fp32", t, o.heads, attention.splits(), kHeadDim),
               partials * kHeadDim * 4, Role::kScratch);
  const int lse =
      b.tensor("attention.lse", fmt::format("[{}][{}][{}] fp32", t, o.heads, attention.splits()),
               partials * 4, Role::kScratch);
  const int attn32 =
      b.tensor("attention.out", dims(t, q_dim, "fp32"), t * q_dim * 4, Role::kScratch);
  const int attn = b.tensor("o_proj.in", dims(m, q_dim, "bf16"), m * q_dim * 2, Role::kActivation);
  const int w_o = b.tensor("o_proj.weight", dims(h, q_dim, wtype), h * q_dim * 2, Role::kWeight,
                           Fill::kWeight, 13, weight_scale(static_cast<uint32_t>(q_dim)));
  const int o32 = b.tensor("o_proj.out", dims(m, h, "fp32"), m * h * 4, Role::kScratch);
  const int hres = b.tensor("h", dims(t, h, "bf16"), t * h * 2, Role::kActivation);
  const int w_ffn_norm = b.tensor("ffn_norm.weight", fmt::format("[{}] bf16", h), h * 2,
                                  Role::kWeight, Fill::kBf16, 14);
  const int hn = b.tensor("ffn_norm.out", dims(m, h, "bf16"), m * h * 2, Role::kActivation);
  const int w_gu = b.tensor("gate_up_proj.weight", dims(2 * f, h, wtype), 2 * f * h * 2,
                            Role::kWeight, Fill::kWeight, 15, weight_scale(o.hidden));
  const int gu32 =
      b.tensor("gate_up_proj.out", dims(m, 2 * f, "fp32"), m * 2 * f * 4, Role::kScratch);
  const int gu = b.tensor("gate_up", dims(t, 2 * f, "bf16"), t * 2 * f * 2, Role::kActivation);
  const int act = b.tensor("down_proj.in", dims(m, f, "bf16"), m * f * 2, Role::kActivation);
  const int w_down = b.tensor("down_proj.weight", dims(h, f, wtype), h * f * 2, Role::kWeight,
                              Fill::kWeight, 16, weight_scale(o.ffn));
  const int d32 = b.tensor("down_proj.out", dims(m, h, "fp32"), m * h * 4, Role::kScratch);
  const int out = b.tensor("out", dims(t, h, "bf16"), t * h * 2, Role::kActivation);
  if (plan.total_bytes() > kMaxLayerBytes) {
    throw Error(
        fmt::format("the layer's tensors take {:.1f} GiB, more than the {} GiB a capture "
                    "holds in memory: reduce --batch, --context, --hidden or --ffn",
                    static_cast<double>(plan.total_bytes()) / (1 << 30), kMaxLayerBytes >> 30));
  }

  auto at = [](int tensor, uint64_t offset = 0) { return Binding{tensor, offset}; };
  auto gemm_values = [&](uint64_t n, uint64_t kdim) {
    return std::vector<std::string>{u(m), u(n), u(kdim)};
  };
  const std::string cast = std::string(k::gemm_epilogue::kCastKernel);
  const std::string residual = std::string(k::gemm_epilogue::kResidualKernel);

  b.launch("attn_norm", k::rmsnorm::kKernel, {u(t), u(h)}, {at(x), at(w_attn_norm), at(xn)});
  b.launch("qkv_proj", gemm, gemm_values(qkv, h), {at(xn), at(w_qkv), at(qkv32)});
  b.launch("q_cast", cast, {u(t), u(q_dim), u(qkv)}, {at(qkv32), at(q)});
  b.launch("k_cast", cast, {u(t), u(kv_dim), u(qkv)}, {at(qkv32, q_dim * 4), at(kk)});
  b.launch("v_cast", cast, {u(t), u(kv_dim), u(qkv)}, {at(qkv32, (q_dim + kv_dim) * 4), at(v)});
  b.launch("rope", k::rope::kKernel, {u(t), u(o.heads), u(o.kv_heads), u(o.context)},
           {at(positions), at(q), at(kk), at(cos_sin)});
  b.launch("kv_append", k::kv_append::kKernel, {u(t), u(o.kv_heads), u(attention.num_pages())},
           {at(kk), at(v), at(k_cache), at(v_cache), at(slots)});
  const std::vector<std::string> attention_values{u(t), u(o.context), u(o.kv_heads)};
  b.launch("attention", da::kKernel, attention_values,
           {at(q), at(k_cache), at(v_cache), at(tables), at(lens), at(o_partial), at(lse)});
  b.launch("attention_combine", da::kCombineKernel, attention_values,
           {at(o_partial), at(lse), at(lens), at(attn32)});
  b.launch("attention_cast", cast, {u(t), u(q_dim)}, {at(attn32), at(attn)});
  b.launch("o_proj", gemm, gemm_values(h, q_dim), {at(attn), at(w_o), at(o32)});
  b.launch("attn_residual", residual, {u(t), u(h)}, {at(o32), at(x), at(hres)});
  b.launch("ffn_norm", k::rmsnorm::kKernel, {u(t), u(h)}, {at(hres), at(w_ffn_norm), at(hn)});
  b.launch("gate_up_proj", gemm, gemm_values(2 * f, h), {at(hn), at(w_gu), at(gu32)});
  b.launch("gate_up_cast", cast, {u(t), u(2 * f)}, {at(gu32), at(gu)});
  b.launch("swiglu", k::swiglu::kKernel, {u(t), u(f)}, {at(gu), at(act)});
  b.launch("down_proj", gemm, gemm_values(h, f), {at(act), at(w_down), at(d32)});
  b.launch("ffn_residual", residual, {u(t), u(h)}, {at(d32), at(hres), at(out)});
  for (const PlannedLaunch& l : plan.launches) {
    const auto args = l.launch.arguments();
    for (size_t i = 0; i < args.size(); ++i) {
      const Binding& bd = l.bindings[i];
      if (bd.tensor < 0) continue;
      const Tensor& tensor = plan.tensors[static_cast<size_t>(bd.tensor)];
      if (bd.offset + args[i].size_bytes > tensor.bytes) {
        throw Error(
            fmt::format("{} ({}): argument {} ({} bytes at {}) overruns tensor {} ({} "
                        "bytes)",
                        l.step, l.kernel, args[i].name, args[i].size_bytes, bd.offset, tensor.name,
                        tensor.bytes));
      }
    }
  }
  return plan;
}

}  // namespace sassim::emu::workload
