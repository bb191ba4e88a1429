#include "sim/sol_report.h"

#include <cmath>
#include <string>

#include <fmt/format.h>

#include "ground/display_name.h"
#include "isa/opcode.h"

namespace sassim::sim {
namespace {

std::string intensity_text(double ai) {
  if (std::isnan(ai)) return "-";
  if (std::isinf(ai)) return "inf";
  return fmt::format("{:.3g}", ai);
}

// " bf16 97.1%" for each operand type with FLOPs and a peak.
std::string tensor_types_text(const SpeedOfLight& sol) {
  std::string text;
  for (std::size_t t = 1; t < config::kNumMmaTypes; ++t) {
    const double pct = sol.tensor_pct[t];
    if (std::isnan(pct) || pct == 0) continue;
    text += fmt::format(" {} {:.1f}%", isa::mma_type_name(static_cast<isa::MmaType>(t)), pct);
  }
  return text;
}

}  // namespace

void print_speed_of_light(std::FILE* out, const std::vector<KernelResult>& results) {
  if (results.empty()) return;
  fmt::print(out, "{:>4}  {:<36} {:>8}", "id", "speed of light (% of peak)", "bound by");
  for (std::size_t i = 0; i < kNumSolLimits; ++i) {
    fmt::print(out, " {:>6}", sol_limit_name(static_cast<SolLimit>(i)));
  }
  fmt::print(out, " {:>9}  {}\n", "FLOP/byte", "tensor by operand type");
  std::uint32_t unpriced = 0;
  for (const KernelResult& r : results) {
    fmt::print(out, "{:>4}  {:<36} {:>8}", r.info.id, kernel_display_name(r.info.name, 36),
               r.sol.bound_by_name());
    for (double pct : r.sol.pct) fmt::print(out, " {:>6.1f}", pct);
    fmt::print(out, " {:>9} {}\n", intensity_text(r.sol.arithmetic_intensity),
               tensor_types_text(r.sol));
    unpriced |= r.sol.tensor_unpriced;
  }
  for (std::size_t t = 1; t < config::kNumMmaTypes; ++t) {
    if ((unpriced & (1U << t)) == 0) continue;
    fmt::print(out,
               "speed of light: the config has no sm.tensor_ops entry for dense {} matrix "
               "forms, so their FLOPs count in no tensor percentage\n",
               isa::mma_type_name(static_cast<isa::MmaType>(t)));
  }
}

}  // namespace sassim::sim
