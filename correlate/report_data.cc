// correlation.csv, summary.json and the two SVG plots.
#include <algorithm>

#include <fmt/format.h>

#include "correlate/json_writer.h"
#include "correlate/report_content.h"
#include "correlate/svg_plots.h"

namespace sassim::correlate {
namespace {

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char ch : text) {
    if (ch == '"') out += '"';
    out += ch;
  }
  return out + "\"";
}

void json_hw_kernel(JsonWriter& j, const HwKernel& k) {
  j.key("name").value(k.name);
  j.key("file").value(k.file);
  j.key("line").value(static_cast<std::uint64_t>(k.line));
  j.key("launch").value(k.launch);
  j.key("cycles").value(k.cycles);
}

}  // namespace

std::vector<std::string> hw_metrics_used(const Correlation& c) {
  std::vector<std::string> metrics;
  for (const MatchedKernel& m : c.match.matched) {
    if (std::find(metrics.begin(), metrics.end(), m.hw.metric) == metrics.end()) {
      metrics.push_back(m.hw.metric);
    }
  }
  return metrics;
}

std::string pearson_text(const ErrorSummary& e) {
  return e.pearson_r ? fmt::format("r = {:.4f} (n = {})", *e.pearson_r, e.n) : e.pearson_note;
}

std::string correlation_csv(const Correlation& c) {
  std::string out =
      "sim_file,kernel_id,kernel,launch,sim_cycles,hw_cycles,error_cycles,"
      "relative_error_percent,hw_kernel,hw_launch,hw_metric,hw_file,hw_line\n";
  for (const MatchedKernel& m : c.match.matched) {
    out += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{}\n", csv_field(m.sim.file), m.sim.id,
                       csv_field(m.sim.name), m.ordinal, m.sim.cycles, m.hw.cycles,
                       m.sim.cycles - m.hw.cycles, relative_error_percent(m), csv_field(m.hw.name),
                       csv_field(m.hw.launch), csv_field(m.hw.metric), csv_field(m.hw.file),
                       m.hw.line);
  }
  return out;
}

std::string summary_json(const Correlation& c) {
  const ErrorSummary& e = c.errors;
  JsonWriter j;
  j.begin_object();
  j.key("metric").value(c.metric);
  j.key("matched").value(static_cast<std::uint64_t>(e.n));
  j.key("names_compared").value(c.match.level == NameLevel::kFull ? "full" : "base");
  j.key("mape_percent").value(e.mape_percent);
  j.key("mae_cycles").value(e.mae);
  j.key("bias_percent").value(e.bias_percent);
  j.key("max_abs_error_percent").value(e.max_abs_error_percent);
  j.key("sim_total_cycles").value(e.sim_total);
  j.key("hw_total_cycles").value(e.hw_total);
  j.key("aggregate_error_percent").value(e.aggregate_error_percent);
  j.key("pearson_r");
  if (e.pearson_r) {
    j.value(*e.pearson_r);
  } else {
    j.null();
  }
  j.key("pearson_n").value(static_cast<std::uint64_t>(e.n));
  j.key("pearson_note").value(e.pearson_r ? std::string() : e.pearson_note);
  j.key("hw_metrics").begin_array();
  for (const std::string& m : hw_metrics_used(c)) j.value(m);
  j.end_array();
  j.key("kernels").begin_array();
  for (const MatchedKernel& m : c.match.matched) {
    j.begin_object();
    j.key("kernel").value(m.sim.name);
    j.key("kernel_id").value(static_cast<std::uint64_t>(m.sim.id));
    j.key("launch").value(static_cast<std::uint64_t>(m.ordinal));
    j.key("sim_cycles").value(m.sim.cycles);
    j.key("hw_cycles").value(m.hw.cycles);
    j.key("relative_error_percent").value(relative_error_percent(m));
    j.key("hw_metric").value(m.hw.metric);
    j.end_object();
  }
  j.end_array();
  j.key("unmatched_sim").begin_array();
  for (const UnmatchedSim& u : c.match.unmatched_sim) {
    j.begin_object();
    j.key("name").value(u.sim.name);
    j.key("kernel_id").value(static_cast<std::uint64_t>(u.sim.id));
    j.key("file").value(u.sim.file);
    j.key("launch").value(static_cast<std::uint64_t>(u.ordinal));
    j.key("reason").value(u.reason);
    j.end_object();
  }
  j.end_array();
  j.key("unmatched_hw").begin_array();
  for (const UnmatchedHw& u : c.match.unmatched_hw) {
    j.begin_object();
    json_hw_kernel(j, u.hw);
    j.key("reason").value(u.reason);
    j.end_object();
  }
  j.end_array();
  j.key("sim_files").begin_array();
  for (const SimRun& s : c.sims) {
    j.begin_object();
    j.key("file").value(s.file);
    j.key("trace").value(s.trace);
    j.key("config").value(s.config_name);
    j.key("core_mhz");
    if (s.core_mhz) {
      j.value(*s.core_mhz);
    } else {
      j.null();
    }
    j.key("kernels").value(static_cast<std::uint64_t>(s.kernels.size()));
    j.end_object();
  }
  j.end_array();
  j.key("hw_files").begin_array();
  for (const HwMeasurements& h : c.hws) {
    j.begin_object();
    j.key("file").value(h.file);
    j.key("format").value(h.format);
    j.key("kernels").value(static_cast<std::uint64_t>(h.kernels.size()));
    j.key("notes").begin_array();
    for (const std::string& n : h.notes) j.value(n);
    j.end_array();
    j.end_object();
  }
  j.end_array();
  j.key("notes").begin_array();
  for (const std::string& n : c.match.notes) j.value(n);
  j.end_array();
  j.end_object();
  return j.str();
}

std::string scatter_plot(const Correlation& c) {
  std::vector<ScatterPoint> points;
  for (const MatchedKernel& m : c.match.matched) {
    points.push_back(
        {m.hw.cycles, m.sim.cycles,
         fmt::format("{} #{}: sim {:g}, hw {:g}, error {:+.1f}%", display_name(m.sim.name),
                     m.ordinal, m.sim.cycles, m.hw.cycles, relative_error_percent(m))});
  }
  return scatter_svg(points,
                     fmt::format("simulated vs hardware cycles (n = {}, MAPE {:.1f}%)", c.errors.n,
                                 c.errors.mape_percent),
                     "hardware cycles (log scale)", "simulated cycles (log scale)");
}

std::string error_histogram(const Correlation& c) {
  std::vector<double> errors;
  for (const MatchedKernel& m : c.match.matched) errors.push_back(relative_error_percent(m));
  return histogram_svg(errors, fmt::format("signed relative error (n = {})", c.errors.n),
                       "(simulated - hardware) / hardware cycles, %");
}

}  // namespace sassim::correlate
