// The JSON writer, the SVG writer and plots, and the output files of a small correlation.
#include <gtest/gtest.h>

#include <gmock/gmock.h>

#include "correlate/axis_ticks.h"
#include "correlate/json_writer.h"
#include "correlate/report_content.h"
#include "correlate/svg_plots.h"
#include "correlate/svg_writer.h"
#include "correlate_fixtures.h"

namespace sassim::correlate {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(JsonWriter, NestsEscapesAndWritesNullForNonFinite) {
  JsonWriter j;
  j.begin_object();
  j.key("name").value("a \"b\"\n\\");
  j.key("n").value(std::uint64_t{3});
  j.key("x").value(5773.25);
  j.key("bad").value(std::nan(""));
  j.key("list").begin_array().value(1.0).value(true).null().end_array();
  j.key("empty").begin_object().end_object();
  j.end_object();
  EXPECT_EQ(j.str(),
            "{\n  \"name\": \"a \\\"b\\\"\\n\\\\\",\n  \"n\": 3,\n  \"x\": 5773.25,\n"
            "  \"bad\": null,\n  \"list\": [\n    1,\n    true,\n    null\n  ],\n"
            "  \"empty\": {}\n}\n");
}

TEST(Svg, EscapesText) {
  Svg svg(10, 10);
  svg.text(1, 2, "void k<float>(float*) & more", "");
  EXPECT_THAT(svg.str(), HasSubstr("void k&lt;float&gt;(float*) &amp; more"));
  EXPECT_THAT(svg.str(), HasSubstr("<svg xmlns=\"http://www.w3.org/2000/svg\""));
}

TEST(AxisTicks, LogRangesAndLabels) {
  const LogRange r = log_range(367, 5773.25);
  EXPECT_EQ(r.lo, 100);
  EXPECT_EQ(r.hi, 10000);
  EXPECT_EQ(log_ticks(r), (std::vector<double>{100, 200, 500, 1000, 2000, 5000, 10000}));
  EXPECT_EQ(log_range(1000, 1000).hi, 10000);
  EXPECT_EQ(si_label(5000), "5k");
  EXPECT_EQ(si_label(1.5e6), "1.5M");
  EXPECT_EQ(si_label(200), "200");
  EXPECT_EQ(nice_step(7.3), 5);
  EXPECT_EQ(nice_step(0.031), 0.02);
}

TEST(SvgPlots, ScatterHasOnePointPerKernelAndTheDiagonal) {
  const std::string svg = scatter_svg({{100, 110, "a"}, {1000, 900, "b<c>"}, {0, 5, "zero"}}, "t",
                                      "hardware cycles", "simulated cycles");
  EXPECT_EQ(count(svg, "<circle"), 2U);
  EXPECT_THAT(svg, HasSubstr("<title>b&lt;c&gt;</title>"));
  EXPECT_THAT(svg, HasSubstr("hardware cycles"));
  EXPECT_THAT(svg, HasSubstr("simulated cycles"));
  EXPECT_THAT(svg, HasSubstr("y = x"));
  EXPECT_THAT(svg, HasSubstr("1 point(s) with a value &lt;= 0 not shown"));
  EXPECT_EQ(count(svg, "<svg"), 1U);
  EXPECT_EQ(count(svg, "</svg>"), 1U);
}

TEST(SvgPlots, HistogramCountsEveryValue) {
  const std::string svg = histogram_svg({-93.6, -10, -12, 5, 40}, "t", "error %");
  // Bars carry their count in a tooltip; the counts add up to the number of values.
  std::size_t total = 0;
  for (auto at = svg.find(" kernel(s)</title>"); at != std::string::npos;
       at = svg.find(" kernel(s)</title>", at + 1)) {
    const auto colon = svg.rfind(": ", at);
    total += std::stoul(svg.substr(colon + 2, at - colon - 2));
  }
  EXPECT_EQ(total, 5U);
  EXPECT_THAT(svg, HasSubstr("stroke=\"#b00\""));               // the zero line
  EXPECT_EQ(count(histogram_svg({7}, "t", "x"), "<rect"), 2U);  // background + one bar
}

Correlation small_correlation() {
  Correlation c;
  c.metric = "cycles";
  c.match.matched.push_back({{"_Z1ai", 1, 110, "s.h5"},
                             {"void a(int)", 100, "m1", "hw.csv", 2, "ID 0"},
                             "void a(int)",
                             0});
  c.match.matched.push_back({{"_Z1bPKc", 2, 45, "s.h5"},
                             {"void b(char const*)", 50, "m1", "hw.csv", 3, "ID 1"},
                             "void b(char const*)",
                             0});
  c.match.unmatched_hw.push_back({{"void c()", 7, "m1", "hw.csv", 4, "ID 2"}, 0, "why"});
  c.errors = summarize_errors({110, 45}, {100, 50});
  return c;
}

TEST(ReportContent, CsvRowsAndQuoting) {
  const std::string csv = correlation_csv(small_correlation());
  EXPECT_THAT(csv, HasSubstr("s.h5,1,_Z1ai,0,110,100,10,10,void a(int),ID 0,m1,hw.csv,2\n"));
  EXPECT_THAT(csv, HasSubstr("s.h5,2,_Z1bPKc,0,45,50,-5,-10,void b(char const*),ID 1"));
  EXPECT_EQ(count(csv, "\n"), 3U);
  Correlation c = small_correlation();
  c.match.matched[0].hw.name = "void a<int, 2>(int)";
  EXPECT_THAT(correlation_csv(c), HasSubstr(",\"void a<int, 2>(int)\","));
}

TEST(ReportContent, SummaryAndHtml) {
  const Correlation c = small_correlation();
  const std::string json = summary_json(c);
  EXPECT_THAT(json, HasSubstr("\"matched\": 2,"));
  EXPECT_THAT(json, HasSubstr("\"mape_percent\": 10,"));
  EXPECT_THAT(json, HasSubstr("\"mae_cycles\": 7.5,"));
  EXPECT_THAT(json, HasSubstr("\"pearson_n\": 2,"));
  EXPECT_THAT(json, Not(HasSubstr("\"pearson_r\": null")));
  EXPECT_THAT(json, HasSubstr("\"reason\": \"why\""));
  const std::string html = report_html(c, scatter_plot(c), error_histogram(c));
  EXPECT_THAT(html, HasSubstr("<!DOCTYPE html>"));
  EXPECT_EQ(count(html, "<svg"), 2U);
  EXPECT_THAT(html, HasSubstr("<td>b(char const*)</td>"));  // demangled simulated name
  EXPECT_THAT(html, HasSubstr("Hardware launches without a simulated kernel"));
  // Self-contained: nothing linked or fetched.
  EXPECT_THAT(html, Not(HasSubstr("src=")));
  EXPECT_THAT(html, Not(HasSubstr("href=")));
  EXPECT_THAT(html, Not(HasSubstr("<script")));
}

}  // namespace
}  // namespace sassim::correlate
