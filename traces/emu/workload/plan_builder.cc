#include "traces/emu/workload/plan_builder.h"

#include <fmt/format.h>

#include <bit>
#include <cmath>
#include <stdexcept>

#include "ground/error.h"
#include "kernels/bf16_gemm_wgmma.h"
#include "kernels/bf16_gemm_ws.h"
#include "kernels/hgemm_mma.h"
#include "kernels/skinny_gemm.h"
#include "kernels/suite.h"

namespace sassim::emu::workload {
namespace {

namespace k = kernels;

// Bytes a layer may allocate: the capture holds all of it in host memory.
constexpr uint64_t kMaxLayerBytes = uint64_t{32} << 30;

// Why skinny_gemm cannot compute the layer's projections for `tokens` rows ("" when it can).
std::string skinny_obstacle(const LayerOptions& o, uint32_t tokens) {
  namespace sg = k::skinny_gemm;
  if (tokens > sg::kMaxRows) {
    return fmt::format(
        "{} token rows, more than skinny_gemm's {} (it serves decode steps of "
        "up to {} sequences)",
        tokens, sg::kMaxRows, sg::kMaxRows);
  }
  const std::pair<const char*, uint64_t> ks[] = {
      {"--hidden", o.hidden}, {"--heads x 128", uint64_t{o.heads} * 128}, {"--ffn", o.ffn}};
  for (const auto& [what, kdim] : ks) {
    if (kdim % sg::kStepK != 0) {
      return fmt::format("{} = {} is a projection's K, and skinny_gemm takes K in steps of {}",
                         what, kdim, sg::kStepK);
    }
  }
  return "";
}

}  // namespace

void check_common_options(const LayerOptions& o) {
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
  if (o.model_layers == 0 || o.model_layers > 1024) {
    throw Error(fmt::format("--model-layers {}: expected 1 to 1024 layers", o.model_layers));
  }
  if (o.ffn == 0 || o.ffn % 64 != 0) {
    throw Error(
        fmt::format("--ffn {}: expected a positive multiple of 64 (the gate/up GEMM's N "
                    "is 2 x ffn, a multiple of its 128 tile; the down GEMM's K is ffn, "
                    "a multiple of 64)",
                    o.ffn));
  }
}

float weight_scale(uint32_t k) {
  const int e = static_cast<int>(std::bit_width(k) - 1) / 2;
  return std::ldexp(1.0F, -e);
}

LayerGemm choose_gemm(const LayerOptions& o, uint32_t tokens) {
  const std::string obstacle = skinny_obstacle(o, tokens);
  if (o.gemm == GemmChoice::kSkinny && !obstacle.empty())
    throw Error(fmt::format("--gemm skinny: {}", obstacle));
  if (o.gemm == GemmChoice::kWarpSpecialised && o.sm_version < 90) {
    throw Error(
        fmt::format("--gemm ws: bf16_gemm_ws needs sm_90 (wgmma and clusters), not "
                    "sm_{}",
                    o.sm_version));
  }
  LayerGemm g;
  g.skinny = o.gemm == GemmChoice::kSkinny || (o.gemm == GemmChoice::kAuto && obstacle.empty());
  if (g.skinny) {
    g.kernel = std::string(k::skinny_gemm::kernel_for(tokens));
    g.rows = k::skinny_gemm::rows_of(g.kernel);
    g.row_tile = g.rows;
    g.col_tile = k::skinny_gemm::kColsPerCta;
  } else if (o.gemm == GemmChoice::kWarpSpecialised) {
    g.kernel = std::string(k::bf16_gemm_ws::kKernel);
    g.row_tile = k::gemm_ws::kTileM * k::gemm_ws::kClusterM;
    g.col_tile = k::gemm_ws::kTileN;
  } else {
    g.kernel =
        std::string(o.sm_version >= 90 ? k::bf16_gemm_wgmma::kKernel : k::hgemm_mma::kKernel);
    g.row_tile = kGemmTile;
    g.col_tile = kGemmTile;
  }
  if (!g.skinny) g.rows = k::ceil_div(tokens, g.row_tile) * g.row_tile;
  const bool fp16 = g.kernel == k::hgemm_mma::kKernel;
  g.weight_type = fp16 ? "fp16" : "bf16";
  g.weight_fill = fp16 ? Fill::kWeightFp16 : Fill::kWeightBf16;
  return g;
}

std::vector<std::string> LayerGemm::values(uint64_t n, uint64_t k) const {
  if (skinny) return {u(n), u(k)};
  return {u(rows), u(n), u(k)};
}

std::string u(uint64_t v) {
  return std::to_string(v);
}

std::string dims(uint64_t rows, uint64_t cols, std::string_view type) {
  return fmt::format("[{}][{}] {}", rows, cols, type);
}

int PlanBuilder::tensor(std::string name, std::string shape, uint64_t bytes, Role role, Fill fill,
                        uint64_t seed, float scale) {
  plan_.tensors.push_back(
      Tensor{std::move(name), std::move(shape), bytes, role, fill, seed, scale});
  return static_cast<int>(plan_.tensors.size() - 1);
}

void PlanBuilder::launch(std::string step, std::string_view kernel, std::vector<std::string> values,
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
  const bool sm90a = kernel == k::bf16_gemm_wgmma::kKernel || kernel == k::bf16_gemm_ws::kKernel;
  l.listing_folder = sm90a ? "sm_90a" : fmt::format("sm_{}", sm);
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

void check_layer_size(const LayerPlan& plan, std::string_view reduce) {
  if (plan.total_bytes() > kMaxLayerBytes) {
    throw Error(fmt::format(
        "the layer's tensors take {:.1f} GiB, more than the {} GiB a capture "
        "holds in memory: reduce {}",
        static_cast<double>(plan.total_bytes()) / (1 << 30), kMaxLayerBytes >> 30, reduce));
  }
}

void check_bindings(const LayerPlan& plan) {
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
}

}  // namespace sassim::emu::workload
