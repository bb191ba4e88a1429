#include "correlate/error_metrics.h"

#include <cmath>

#include <fmt/format.h>

#include "ground/error.h"

namespace sassim::correlate {

double relative_error(double sim, double hw) {
  return (sim - hw) / hw;
}

std::optional<double> pearson(const std::vector<double>& x, const std::vector<double>& y,
                              std::string* why_undefined) {
  const std::size_t n = x.size();
  if (n != y.size()) throw Error("pearson: the two series differ in length");
  if (n < 2) {
    *why_undefined = fmt::format("undefined with n = {} (needs at least 2 kernels)", n);
    return std::nullopt;
  }
  double mean_x = 0, mean_y = 0;
  for (std::size_t i = 0; i < n; ++i) {
    mean_x += x[i];
    mean_y += y[i];
  }
  mean_x /= static_cast<double>(n);
  mean_y /= static_cast<double>(n);
  double sxy = 0, sxx = 0, syy = 0;
  for (std::size_t i = 0; i < n; ++i) {
    sxy += (x[i] - mean_x) * (y[i] - mean_y);
    sxx += (x[i] - mean_x) * (x[i] - mean_x);
    syy += (y[i] - mean_y) * (y[i] - mean_y);
  }
  if (sxx == 0 || syy == 0) {
    *why_undefined = fmt::format("undefined: the {} values are all equal (n = {})",
                                 sxx == 0 ? "simulated" : "hardware", n);
    return std::nullopt;
  }
  return sxy / std::sqrt(sxx * syy);
}

ErrorSummary summarize_errors(const std::vector<double>& sim, const std::vector<double>& hw) {
  if (sim.size() != hw.size()) throw Error("summarize_errors: the two series differ in length");
  if (sim.empty()) throw Error("no matched kernel to compute errors over");
  ErrorSummary s;
  s.n = sim.size();
  double abs_rel = 0, signed_rel = 0, abs_err = 0;
  for (std::size_t i = 0; i < s.n; ++i) {
    if (!(hw[i] > 0)) throw Error(fmt::format("hardware value {} is not positive", hw[i]));
    const double rel = relative_error(sim[i], hw[i]);
    abs_rel += std::abs(rel);
    signed_rel += rel;
    abs_err += std::abs(sim[i] - hw[i]);
    if (i == 0 || std::abs(rel) * 100.0 > s.max_abs_error_percent) {
      s.max_abs_error_percent = std::abs(rel) * 100.0;
      s.max_abs_error_index = i;
    }
    s.sim_total += sim[i];
    s.hw_total += hw[i];
  }
  const double n = static_cast<double>(s.n);
  s.mape_percent = 100.0 * abs_rel / n;
  s.bias_percent = 100.0 * signed_rel / n;
  s.mae = abs_err / n;
  s.aggregate_error_percent = 100.0 * relative_error(s.sim_total, s.hw_total);
  s.pearson_r = pearson(sim, hw, &s.pearson_note);
  return s;
}

}  // namespace sassim::correlate
