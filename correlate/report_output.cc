// Writing the output files and the console summary.
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "correlate/correlate.h"
#include "correlate/report_content.h"
#include "ground/error.h"

namespace sassim::correlate {
namespace {

void write_file(const std::filesystem::path& path, const std::string& content) {
  std::ofstream out(path, std::ios::binary);
  out << content;
  out.close();
  if (!out) throw Error(fmt::format("{}: cannot write the file", path.string()));
}

std::string shorten(const std::string& s, std::size_t max) {
  return s.size() <= max ? s : s.substr(0, max - 3) + "...";
}

}  // namespace

void write_outputs(const Correlation& c, const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw Error(fmt::format("{}: cannot create the folder: {}", dir, ec.message()));
  const std::filesystem::path d(dir);
  const std::string scatter = scatter_plot(c);
  const std::string histogram = error_histogram(c);
  write_file(d / "correlation.csv", correlation_csv(c));
  write_file(d / "summary.json", summary_json(c));
  write_file(d / "scatter.svg", scatter);
  write_file(d / "error_histogram.svg", histogram);
  write_file(d / "report.html", report_html(c, scatter, histogram));
}

void print_summary(std::FILE* out, const Correlation& c) {
  const ErrorSummary& e = c.errors;
  std::size_t sim_launches = 0, hw_launches = 0;
  for (const SimRun& s : c.sims) sim_launches += s.kernels.size();
  for (const HwMeasurements& h : c.hws) hw_launches += h.kernels.size();
  fmt::print(out,
             "correlating {}: {} simulated launch(es) in {} file(s), {} hardware launch(es) in {} "
             "file(s)\n",
             c.metric, sim_launches, c.sims.size(), hw_launches, c.hws.size());
  for (const HwMeasurements& h : c.hws) {
    fmt::print(out, "  {} ({}, {} launch(es){}{})\n", h.file, h.format, h.kernels.size(),
               h.notes.empty() ? "" : "; ", fmt::join(h.notes, "; "));
  }
  fmt::print(out, "hardware metric: {}\n", fmt::join(hw_metrics_used(c), ", "));
  for (const std::string& n : c.match.notes) fmt::print(out, "note: {}\n", n);
  fmt::print(out, "{:<44} {:>6} {:>14} {:>14} {:>9}\n", "kernel", "launch", "sim cycles",
             "hw cycles", "error");
  for (const MatchedKernel& m : c.match.matched) {
    fmt::print(out, "{:<44} {:>6} {:>14} {:>14} {:>+8.2f}%\n",
               shorten(display_name(m.sim.name), 44), m.ordinal, fmt::format("{:g}", m.sim.cycles),
               fmt::format("{:g}", m.hw.cycles), relative_error_percent(m));
  }
  fmt::print(out, "matched {}: MAPE {:.2f}%, MAE {:.2f} cycles, bias {:+.2f}%, total {:+.2f}%\n",
             e.n, e.mape_percent, e.mae, e.bias_percent, e.aggregate_error_percent);
  fmt::print(out, "Pearson correlation: {}\n", pearson_text(e));
  if (!c.match.unmatched_sim.empty() || !c.match.unmatched_hw.empty()) {
    fmt::print(out, "unmatched: {} simulated, {} hardware launch(es)\n",
               c.match.unmatched_sim.size(), c.match.unmatched_hw.size());
    constexpr std::size_t kShown = 5;
    for (std::size_t i = 0; i < c.match.unmatched_sim.size() && i < kShown; ++i) {
      const UnmatchedSim& u = c.match.unmatched_sim[i];
      fmt::print(out, "  simulated {} #{} (id {}): {}\n", shorten(display_name(u.sim.name), 60),
                 u.ordinal, u.sim.id, u.reason);
    }
    for (std::size_t i = 0; i < c.match.unmatched_hw.size() && i < kShown; ++i) {
      const UnmatchedHw& u = c.match.unmatched_hw[i];
      fmt::print(out, "  hardware {} #{} ({}:{}): {}\n", shorten(display_name(u.hw.name), 60),
                 u.ordinal, u.hw.file, u.hw.line, u.reason);
    }
    if (c.match.unmatched_sim.size() > kShown || c.match.unmatched_hw.size() > kShown) {
      fmt::print(out, "  (all of them in summary.json and report.html)\n");
    }
  }
}

}  // namespace sassim::correlate
