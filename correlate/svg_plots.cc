#include "correlate/svg_plots.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "correlate/axis_ticks.h"
#include "correlate/svg_writer.h"

namespace sassim::correlate {
namespace {

constexpr double kWidth = 560, kHeight = 480;
constexpr double kLeft = 80, kRight = 24, kTop = 40, kBottom = 64;
constexpr double kPlotW = kWidth - kLeft - kRight, kPlotH = kHeight - kTop - kBottom;
constexpr const char* kAxis = R"(stroke="#333" stroke-width="1")";
constexpr const char* kGrid = R"(stroke="#ddd" stroke-width="1")";
constexpr const char* kTickText = R"(fill="#333")";

void frame(Svg& svg, const std::string& title, const std::string& x_label,
           const std::string& y_label) {
  svg.rect(0, 0, kWidth, kHeight, R"(fill="white")");
  svg.text(kWidth / 2, 22, title, R"(text-anchor="middle" font-size="14" font-weight="bold")");
  svg.text(kLeft + kPlotW / 2, kHeight - 16, x_label, R"(text-anchor="middle")");
  svg.text(18, kTop + kPlotH / 2, y_label,
           fmt::format(R"x(text-anchor="middle" transform="rotate(-90 18 {:.2f})")x",
                       kTop + kPlotH / 2));
}

void axes(Svg& svg) {
  svg.line(kLeft, kTop + kPlotH, kLeft + kPlotW, kTop + kPlotH, kAxis);
  svg.line(kLeft, kTop, kLeft, kTop + kPlotH, kAxis);
}

}  // namespace

std::string scatter_svg(const std::vector<ScatterPoint>& points, const std::string& title,
                        const std::string& x_label, const std::string& y_label) {
  Svg svg(kWidth, kHeight);
  frame(svg, title, x_label, y_label);
  std::vector<const ScatterPoint*> shown;
  for (const ScatterPoint& p : points) {
    if (p.hw > 0 && p.sim > 0 && std::isfinite(p.hw) && std::isfinite(p.sim)) shown.push_back(&p);
  }
  double lo = 1, hi = 10;
  if (!shown.empty()) {
    lo = std::min(shown.front()->hw, shown.front()->sim);
    hi = std::max(shown.front()->hw, shown.front()->sim);
    for (const ScatterPoint* p : shown) {
      lo = std::min({lo, p->hw, p->sim});
      hi = std::max({hi, p->hw, p->sim});
    }
  }
  const LogRange range = log_range(lo, hi);
  const double span = std::log10(range.hi) - std::log10(range.lo);
  auto px = [&](double v) {
    return kLeft + (std::log10(v) - std::log10(range.lo)) / span * kPlotW;
  };
  auto py = [&](double v) {
    return kTop + kPlotH - (std::log10(v) - std::log10(range.lo)) / span * kPlotH;
  };
  for (double t : log_ticks(range)) {
    svg.line(px(t), kTop, px(t), kTop + kPlotH, kGrid);
    svg.line(kLeft, py(t), kLeft + kPlotW, py(t), kGrid);
    svg.text(px(t), kTop + kPlotH + 16, si_label(t),
             std::string(kTickText) + R"( text-anchor="middle")");
    svg.text(kLeft - 6, py(t) + 4, si_label(t), std::string(kTickText) + R"( text-anchor="end")");
  }
  axes(svg);
  svg.raw(fmt::format(
      R"(<clipPath id="scatter-plot-area"><rect x="{}" y="{}" width="{}" height="{}"/></clipPath>)",
      kLeft, kTop, kPlotW, kPlotH));
  const char* clip = R"x(clip-path="url(#scatter-plot-area)")x";
  svg.line(px(range.lo), py(range.lo), px(range.hi), py(range.hi),
           fmt::format(R"(stroke="#666" stroke-width="1.5" {})", clip));
  for (double factor : {1.2, 0.8}) {
    svg.line(px(range.lo), py(range.lo * factor), px(range.hi), py(range.hi * factor),
             fmt::format(R"(stroke="#aaa" stroke-dasharray="5,4" {})", clip));
  }
  svg.text(kLeft + kPlotW, kTop - 6, "solid: y = x; dashed: ±20%",
           R"(text-anchor="end" fill="#666" font-size="11")");
  for (const ScatterPoint* p : shown) {
    svg.circle(px(p->hw), py(p->sim), 4, R"(fill="#1f77b4" fill-opacity="0.75" stroke="#0b3d63")",
               p->label);
  }
  if (shown.size() != points.size()) {
    svg.text(kLeft + 4, kTop + kPlotH - 6,
             fmt::format("{} point(s) with a value <= 0 not shown on log axes",
                         points.size() - shown.size()),
             R"(fill="#b00" font-size="11")");
  }
  return svg.str();
}

std::string histogram_svg(const std::vector<double>& values, const std::string& title,
                          const std::string& x_label) {
  Svg svg(kWidth, kHeight);
  frame(svg, title, x_label, "kernels");
  double lo = 0, hi = 0;
  if (!values.empty()) {
    lo = *std::min_element(values.begin(), values.end());
    hi = *std::max_element(values.begin(), values.end());
  }
  if (hi - lo < 1e-9) {
    lo -= 5;
    hi += 5;
  }
  const double step = nice_step((hi - lo) / 10);
  const double start = std::floor(lo / step) * step;
  double end = std::ceil(hi / step) * step;
  if (end <= start) end = start + step;
  const std::size_t bins = static_cast<std::size_t>(std::lround((end - start) / step));
  std::vector<std::size_t> counts(bins, 0);
  for (double v : values) {
    auto bin = static_cast<std::size_t>(std::max(0.0, std::floor((v - start) / step)));
    counts[std::min(bin, bins - 1)]++;
  }
  std::size_t max_count = 1;
  for (std::size_t count : counts) max_count = std::max(max_count, count);
  const double y_step = std::max(1.0, nice_step(static_cast<double>(max_count) / 5));
  const double y_top = std::ceil(static_cast<double>(max_count) / y_step) * y_step;
  auto px = [&](double v) { return kLeft + (v - start) / (end - start) * kPlotW; };
  auto py = [&](double c) { return kTop + kPlotH - c / y_top * kPlotH; };
  for (double c = 0; c <= y_top + 1e-9; c += y_step) {
    svg.line(kLeft, py(c), kLeft + kPlotW, py(c), kGrid);
    svg.text(kLeft - 6, py(c) + 4, fmt::format("{:g}", c),
             std::string(kTickText) + R"( text-anchor="end")");
  }
  const double label_step = bins > 10 ? step * 2 : step;
  for (double x = start; x <= end + 1e-9 * step; x += label_step) {
    const double v = std::abs(x) < 1e-9 * step ? 0.0 : x;
    svg.text(px(v), kTop + kPlotH + 16, fmt::format("{:g}", v),
             std::string(kTickText) + R"( text-anchor="middle")");
  }
  for (std::size_t b = 0; b < bins; ++b) {
    if (counts[b] == 0) continue;
    const double x0 = start + static_cast<double>(b) * step;
    svg.rect(px(x0) + 1, py(static_cast<double>(counts[b])), px(x0 + step) - px(x0) - 2,
             py(0) - py(static_cast<double>(counts[b])), R"(fill="#1f77b4" fill-opacity="0.8")",
             fmt::format("{:g} to {:g}: {} kernel(s)", x0, x0 + step, counts[b]));
  }
  if (start < 0 && end > 0) {
    svg.line(px(0), kTop, px(0), kTop + kPlotH, R"(stroke="#b00" stroke-width="1.5")");
  }
  axes(svg);
  return svg.str();
}

}  // namespace sassim::correlate
