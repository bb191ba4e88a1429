#pragma once
// The contents of the output files, as strings (correlate.h writes them).
#include <string>

#include "correlate/correlate.h"

namespace sassim::correlate {

std::string correlation_csv(const Correlation& c);
std::string summary_json(const Correlation& c);
std::string scatter_plot(const Correlation& c);
std::string error_histogram(const Correlation& c);
std::string report_html(const Correlation& c, const std::string& scatter,
                        const std::string& histogram);

// The distinct hardware metrics the matched kernels' values came from, in first-use order.
std::vector<std::string> hw_metrics_used(const Correlation& c);

// "r = 0.987 (n = 12)" or "undefined with n = 1 (needs at least 2 kernels)".
std::string pearson_text(const ErrorSummary& e);

}  // namespace sassim::correlate
