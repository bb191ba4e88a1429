#pragma once
// Accuracy of simulated against measured values over matched kernels.
//   relative error  (sim - hw) / hw, signed, per kernel
//   MAPE            mean of |sim - hw| / hw, in percent
//   MAE             mean of |sim - hw|, in the metric's unit (cycles)
//   bias            mean signed relative error, in percent
//   aggregate       (sum sim - sum hw) / sum hw, in percent
//   Pearson r       of (sim, hw) pairs; undefined with n < 2 or when either side is constant
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace sassim::correlate {

double relative_error(double sim, double hw);

// Pearson correlation coefficient, or nullopt with `why_undefined` set.
std::optional<double> pearson(const std::vector<double>& x, const std::vector<double>& y,
                              std::string* why_undefined);

struct ErrorSummary {
  std::size_t n = 0;
  double mape_percent = 0;
  double mae = 0;
  double bias_percent = 0;
  double max_abs_error_percent = 0;
  std::size_t max_abs_error_index = 0;  // which pair has it
  double sim_total = 0;
  double hw_total = 0;
  double aggregate_error_percent = 0;
  std::optional<double> pearson_r;
  std::string pearson_note;  // why r is undefined, when it is
};

// Throws sassim::Error when the vectors differ in size, are empty, or a hw value is <= 0.
ErrorSummary summarize_errors(const std::vector<double>& sim, const std::vector<double>& hw);

}  // namespace sassim::correlate
