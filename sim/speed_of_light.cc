#include "sim/speed_of_light.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include <fmt/format.h>

#include "ground/error.h"

namespace sassim::sim {
namespace {

constexpr std::string_view kNames[kNumSolLimits] = {"tensor", "fp32", "fp16", "fp64", "int",
                                                    "issue",  "l1",   "l2",   "dram"};

double pct(double work, double peak_per_second, double seconds) {
  return 100.0 * work / (peak_per_second * seconds);
}

}  // namespace

std::string_view sol_limit_name(SolLimit limit) {
  return kNames[static_cast<std::size_t>(limit)];
}

SolLimit sol_limit_from_name(std::string_view name) {
  for (std::size_t i = 0; i < kNumSolLimits; ++i) {
    if (kNames[i] == name) return static_cast<SolLimit>(i);
  }
  std::string known;
  for (std::string_view n : kNames) known += fmt::format("{}{}", known.empty() ? "" : ", ", n);
  throw Error(fmt::format("unknown speed-of-light limit '{}': expected one of {}", name, known));
}

std::array<SolColumn, kNumSolColumns> sol_columns(const SpeedOfLight& sol) {
  std::array<SolColumn, kNumSolColumns> columns;
  std::size_t c = 0;
  for (std::size_t i = 0; i < kNumSolLimits; ++i) {
    columns[c++] = {fmt::format("sol_{}_pct", kNames[i]), sol.pct[i]};
  }
  for (std::size_t t = 1; t < config::kNumMmaTypes; ++t) {
    const std::string_view type = isa::mma_type_name(static_cast<isa::MmaType>(t));
    columns[c++] = {fmt::format("sol_tensor_{}_pct", type), sol.tensor_pct[t]};
  }
  columns[c] = {"arithmetic_intensity", sol.arithmetic_intensity};
  return columns;
}

namespace {

void find_bound(SpeedOfLight& sol) {
  const auto top = std::max_element(sol.pct.begin(), sol.pct.end());  // the first of equal maxima
  sol.bound = *top > 0;
  sol.bound_by = static_cast<SolLimit>(top - sol.pct.begin());
}

}  // namespace

SpeedOfLight rescaled(const SpeedOfLight& sol, double scale, double issue_pct) {
  SpeedOfLight r = sol;
  for (double& p : r.pct) p *= scale;
  for (double& p : r.tensor_pct) p *= scale;  // NaN stays NaN
  r.pct[static_cast<std::size_t>(SolLimit::kIssue)] = issue_pct;
  find_bound(r);
  return r;
}

SpeedOfLight speed_of_light(const SolWork& work, const config::GpuPeaks& peaks) {
  SpeedOfLight sol;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  double flops = work.fp32_flops + work.fp16_flops + work.fp64_flops;
  sol.tensor_pct.fill(nan);
  for (std::size_t t = 1; t < config::kNumMmaTypes; ++t) {
    const double peak = peaks.tensor_flops_per_second[t];
    flops += work.tensor_flops[t];
    if (peak <= 0) {
      if (work.tensor_flops[t] > 0) sol.tensor_unpriced |= 1U << t;
      continue;
    }
    sol.tensor_pct[t] = work.seconds > 0 ? pct(work.tensor_flops[t], peak, work.seconds) : 0.0;
  }
  sol.arithmetic_intensity = work.dram_bytes > 0 ? flops / work.dram_bytes
                             : flops > 0         ? std::numeric_limits<double>::infinity()
                                                 : nan;
  if (work.seconds <= 0) return sol;
  const double s = work.seconds;
  double tensor = 0;
  for (std::size_t t = 1; t < config::kNumMmaTypes; ++t) {
    if (!std::isnan(sol.tensor_pct[t])) tensor += sol.tensor_pct[t];
  }
  auto& p = sol.pct;
  p[static_cast<std::size_t>(SolLimit::kTensor)] = tensor;
  p[static_cast<std::size_t>(SolLimit::kFp32)] =
      pct(work.fp32_flops, peaks.fp32_flops_per_second, s);
  p[static_cast<std::size_t>(SolLimit::kFp16)] =
      pct(work.fp16_flops, peaks.fp16_flops_per_second, s);
  p[static_cast<std::size_t>(SolLimit::kFp64)] =
      pct(work.fp64_flops, peaks.fp64_flops_per_second, s);
  p[static_cast<std::size_t>(SolLimit::kInt)] =
      std::max(pct(work.int_alu_insts, peaks.int_alu_insts_per_second, s),
               pct(work.int_mad_insts, peaks.int_mad_insts_per_second, s));
  p[static_cast<std::size_t>(SolLimit::kIssue)] =
      pct(work.warp_insts, peaks.issue_warp_insts_per_second, s);
  p[static_cast<std::size_t>(SolLimit::kL1)] = pct(work.l1_bytes, peaks.l1_bytes_per_second, s);
  p[static_cast<std::size_t>(SolLimit::kL2)] = pct(work.l2_bytes, peaks.l2_bytes_per_second, s);
  p[static_cast<std::size_t>(SolLimit::kDram)] =
      pct(work.dram_bytes, peaks.dram_bytes_per_second, s);
  find_bound(sol);
  return sol;
}

}  // namespace sassim::sim
