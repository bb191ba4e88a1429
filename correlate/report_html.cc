// report.html: one self-contained page (inline CSS and SVG, no scripts, no network).
#include <fmt/format.h>

#include "correlate/report_content.h"
#include "correlate/svg_writer.h"

namespace sassim::correlate {
namespace {

constexpr const char* kStyle = R"(
body { font-family: sans-serif; margin: 2em; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: left; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
th { background: #f0f0f0; }
.plots { display: flex; flex-wrap: wrap; gap: 1em; }
code { font-size: 90%; }
)";

std::string esc(const std::string& s) {
  return xml_escape(s);
}

std::string row(std::initializer_list<std::string> cells) {
  std::string out = "<tr>";
  for (const std::string& c : cells) out += c;
  return out + "</tr>\n";
}

std::string td(const std::string& text) {
  return "<td>" + esc(text) + "</td>";
}
std::string num(const std::string& text) {
  return "<td class=\"n\">" + esc(text) + "</td>";
}
std::string th(const std::string& text) {
  return "<th>" + esc(text) + "</th>";
}

std::string summary_table(const Correlation& c) {
  const ErrorSummary& e = c.errors;
  std::string t = "<table>\n";
  t += row({th("matched kernel launches"), num(fmt::format("{}", e.n))});
  t += row({th("MAPE"), num(fmt::format("{:.2f}%", e.mape_percent))});
  t += row({th("mean absolute error"), num(fmt::format("{:.2f} cycles", e.mae))});
  t += row({th("bias (mean signed relative error)"), num(fmt::format("{:+.2f}%", e.bias_percent))});
  t += row({th("largest |relative error|"), num(fmt::format("{:.2f}%", e.max_abs_error_percent))});
  t += row({th("total cycles, simulated / hardware"),
            num(fmt::format("{:g} / {:g} ({:+.2f}%)", e.sim_total, e.hw_total,
                            e.aggregate_error_percent))});
  t += row({th("Pearson correlation"), num(pearson_text(e))});
  return t + "</table>\n";
}

std::string matched_table(const Correlation& c) {
  std::string t =
      "<table>\n" + row({th("kernel"), th("launch"), th("simulated cycles"), th("hardware cycles"),
                         th("error"), th("hardware metric"), th("hardware source")});
  for (const MatchedKernel& m : c.match.matched) {
    t += row({td(display_name(m.sim.name)), num(fmt::format("{}", m.ordinal)),
              num(fmt::format("{:g}", m.sim.cycles)), num(fmt::format("{:g}", m.hw.cycles)),
              num(fmt::format("{:+.2f}%", relative_error_percent(m))), td(m.hw.metric),
              td(fmt::format("{}:{} {}", m.hw.file, m.hw.line, m.hw.launch))});
  }
  return t + "</table>\n";
}

std::string unmatched_tables(const Correlation& c) {
  std::string t;
  if (c.match.unmatched_sim.empty() && c.match.unmatched_hw.empty()) {
    return "<p>Every launch on both sides matched.</p>\n";
  }
  if (!c.match.unmatched_sim.empty()) {
    t += "<h3>Simulated launches without a hardware measurement</h3>\n<table>\n" +
         row({th("kernel"), th("launch"), th("kernel id"), th("file"), th("why")});
    for (const UnmatchedSim& u : c.match.unmatched_sim) {
      t += row({td(display_name(u.sim.name)), num(fmt::format("{}", u.ordinal)),
                num(fmt::format("{}", u.sim.id)), td(u.sim.file), td(u.reason)});
    }
    t += "</table>\n";
  }
  if (!c.match.unmatched_hw.empty()) {
    t += "<h3>Hardware launches without a simulated kernel</h3>\n<table>\n" +
         row({th("kernel"), th("launch"), th("cycles"), th("source"), th("why")});
    for (const UnmatchedHw& u : c.match.unmatched_hw) {
      t += row({td(display_name(u.hw.name)), num(fmt::format("{}", u.ordinal)),
                num(fmt::format("{:g}", u.hw.cycles)),
                td(fmt::format("{}:{} {}", u.hw.file, u.hw.line, u.hw.launch)), td(u.reason)});
    }
    t += "</table>\n";
  }
  return t;
}

std::string inputs_table(const Correlation& c) {
  std::string t = "<table>\n" + row({th("side"), th("file"), th("what"), th("kernels")});
  for (const SimRun& s : c.sims) {
    std::string what = fmt::format("trace {}, config {}", s.trace, s.config_name);
    if (s.core_mhz) what += fmt::format(", core clock {:g} MHz", *s.core_mhz);
    t += row({td("simulated"), td(s.file), td(what), num(fmt::format("{}", s.kernels.size()))});
  }
  for (const HwMeasurements& h : c.hws) {
    std::string what = h.format;
    for (const std::string& n : h.notes) what += "; " + n;
    t += row({td("hardware"), td(h.file), td(what), num(fmt::format("{}", h.kernels.size()))});
  }
  return t + "</table>\n";
}

}  // namespace

std::string report_html(const Correlation& c, const std::string& scatter,
                        const std::string& histogram) {
  std::string notes;
  for (const std::string& n : c.match.notes) notes += "<li>" + esc(n) + "</li>\n";
  std::string metrics;
  for (const std::string& m : hw_metrics_used(c)) metrics += "<code>" + esc(m) + "</code> ";
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<title>sassim correlation: {metric}</title>\n<style>{style}</style>\n</head>\n<body>\n"
      "<h1>Simulated vs hardware {metric}</h1>\n"
      "<p>Hardware metric: {metrics}. Kernels matched by name ({level}) and launch order.</p>\n"
      "{notes_list}"
      "<h2>Summary</h2>\n{summary}"
      "<h2>Plots</h2>\n<div class=\"plots\">\n{scatter}{histogram}</div>\n"
      "<h2>Matched kernels</h2>\n{matched}"
      "<h2>Unmatched launches</h2>\n{unmatched}"
      "<h2>Inputs</h2>\n{inputs}"
      "</body>\n</html>\n",
      fmt::arg("metric", esc(c.metric)), fmt::arg("style", kStyle), fmt::arg("metrics", metrics),
      fmt::arg("level", c.match.level == NameLevel::kFull ? "full demangled names" : "base names"),
      fmt::arg("notes_list", notes.empty() ? std::string() : "<ul>\n" + notes + "</ul>\n"),
      fmt::arg("summary", summary_table(c)), fmt::arg("scatter", scatter),
      fmt::arg("histogram", histogram), fmt::arg("matched", matched_table(c)),
      fmt::arg("unmatched", unmatched_tables(c)), fmt::arg("inputs", inputs_table(c)));
}

}  // namespace sassim::correlate
