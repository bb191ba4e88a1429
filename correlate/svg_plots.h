#pragma once
// The correlation plots as SVG documents (no Python needed).
#include <string>
#include <vector>

namespace sassim::correlate {

struct ScatterPoint {
  double hw = 0;      // x
  double sim = 0;     // y
  std::string label;  // tooltip
};

// Log-log scatter of simulated (y) against hardware (x) values with the y = x line and
// dashed ±20% lines. Points with a value <= 0 cannot be placed and are counted in a note.
std::string scatter_svg(const std::vector<ScatterPoint>& points, const std::string& title,
                        const std::string& x_label, const std::string& y_label);

// Histogram of values (signed relative errors in percent), with a line at 0.
std::string histogram_svg(const std::vector<double>& values, const std::string& title,
                          const std::string& x_label);

}  // namespace sassim::correlate
