// End to end on real data: the bundled GTX 1080 vectoradd trace replayed on the gtx1080
// preset, correlated against the Nsight Compute and nvprof measurements of the same kernel.
#include <gtest/gtest.h>

#include <gmock/gmock.h>

#include <fstream>
#include <iterator>
#include <sstream>

#include <fmt/format.h>

#include "correlate/correlate.h"
#include "correlate/csv_table.h"
#include "correlate_fixtures.h"
#include "sim/hdf5_writer.h"
#include "tests/e2e/e2e_fixtures.h"

namespace sassim::correlate {
namespace {

using ::testing::HasSubstr;
using testing::hw_data;

class Gtx1080Vectoradd : public testing::ScratchDir {
 protected:
  void SetUp() override {
    ScratchDir::SetUp();
    const e2e::ReferenceTrace& trace = e2e::reference_traces()[0];
    ASSERT_EQ(trace.name, "gtx1080_vectoradd");
    const config::GpuConfig cfg = config::load_config(trace.preset);
    results_ = e2e::replay(trace);
    ASSERT_EQ(results_.size(), 1U);
    results_file_ = (dir_ / "results.h5").string();
    sim::write_hdf5(results_file_, {trace.path, trace.preset, config::to_text(cfg), cfg.num_sms()},
                    results_);
  }

  Correlation run(const std::string& hw_file) const {
    CorrelateOptions options;
    options.sim_files = {results_file_};
    options.hw_files = {hw_data(hw_file).string()};
    return correlate(options);
  }

  std::vector<sim::KernelResult> results_;
  std::string results_file_;
};

TEST_F(Gtx1080Vectoradd, AgainstNsightCompute) {
  const Correlation c = run(testing::kNsightCsv);
  const double sim_cycles = static_cast<double>(results_[0].cycles);
  ASSERT_EQ(c.sims.size(), 1U);
  ASSERT_EQ(c.sims[0].kernels.size(), 1U);
  EXPECT_EQ(c.sims[0].kernels[0].cycles, sim_cycles);  // what the results file says
  EXPECT_EQ(c.sims[0].kernels[0].name, "_Z6vecAddIfEvPT_S1_S1_i");
  EXPECT_EQ(c.sims[0].core_mhz, 1733.0);
  ASSERT_EQ(c.match.matched.size(), 1U);
  const MatchedKernel& m = c.match.matched[0];
  EXPECT_EQ(m.sim.cycles, sim_cycles);
  EXPECT_EQ(m.hw.cycles, 5773.25);  // sm__elapsed_cycles_avg of launch ID 0
  EXPECT_EQ(m.hw.metric, "sm__elapsed_cycles_avg");
  EXPECT_EQ(c.match.level, NameLevel::kBase);  // ncu printed the bare name "vecAdd"
  // The profile holds three launches; the trace one.
  ASSERT_EQ(c.match.unmatched_hw.size(), 2U);
  EXPECT_EQ(c.match.unmatched_hw[0].hw.cycles, 5761.0);
  EXPECT_TRUE(c.match.unmatched_sim.empty());
  const double error = (sim_cycles - 5773.25) / 5773.25;
  EXPECT_EQ(relative_error_percent(m), 100.0 * error);
  EXPECT_EQ(c.errors.n, 1U);
  EXPECT_EQ(c.errors.mape_percent, 100.0 * std::abs(error));
  EXPECT_EQ(c.errors.mae, std::abs(sim_cycles - 5773.25));
  EXPECT_FALSE(c.errors.pearson_r.has_value());

  write_outputs(c, (dir_ / "out").string());
  for (const char* f :
       {"correlation.csv", "summary.json", "scatter.svg", "error_histogram.svg", "report.html"}) {
    EXPECT_TRUE(std::filesystem::file_size(dir_ / "out" / f) > 0) << f;
  }
  const TextLines csv = read_text_lines((dir_ / "out" / "correlation.csv").string());
  ASSERT_EQ(csv.lines.size(), 2U);
  const CsvTable table = read_csv_table(csv, 0);
  const auto& row = table.rows.at(0).fields;
  EXPECT_EQ(row[*table.column("kernel")], "_Z6vecAddIfEvPT_S1_S1_i");
  EXPECT_EQ(*parse_number(row[*table.column("sim_cycles")]), sim_cycles);
  EXPECT_EQ(*parse_number(row[*table.column("hw_cycles")]), 5773.25);
  EXPECT_EQ(*parse_number(row[*table.column("relative_error_percent")]), 100.0 * error);
  EXPECT_EQ(row[*table.column("hw_line")], "3");
  const std::string json = read(dir_ / "out" / "summary.json");
  EXPECT_THAT(json, HasSubstr("\"matched\": 1,"));
  EXPECT_THAT(json, HasSubstr("\"pearson_r\": null,"));
  EXPECT_THAT(json, HasSubstr("\"pearson_note\": \"undefined with n = 1 (needs at least 2 "
                              "kernels)\""));
  EXPECT_THAT(json, HasSubstr("\"hw_cycles\": 5773.25,"));
  EXPECT_THAT(read(dir_ / "out" / "report.html"), HasSubstr("5773.25"));
}

TEST_F(Gtx1080Vectoradd, AgainstNvprofLog) {
  const Correlation c = run(testing::kNvprofLog);
  ASSERT_EQ(c.match.matched.size(), 1U);
  const MatchedKernel& m = c.match.matched[0];
  EXPECT_EQ(c.match.level, NameLevel::kFull);  // nvprof printed the mangled name
  EXPECT_EQ(m.hw.cycles, 89355.0 / 20);        // elapsed_cycles_sm over the GTX 1080's 20 SMs
  EXPECT_EQ(m.sim.cycles, static_cast<double>(results_[0].cycles));
  EXPECT_EQ(relative_error_percent(m), 100.0 * (m.sim.cycles - 4467.75) / 4467.75);
  EXPECT_TRUE(c.match.unmatched_hw.empty());
  EXPECT_TRUE(c.match.unmatched_sim.empty());
}

TEST_F(Gtx1080Vectoradd, NothingMatchedIsAnError) {
  CorrelateOptions options;
  options.sim_files = {results_file_};
  options.hw_files = {write("other.csv", "kernel,cycles\n_Z5otherv,100\n")};
  const std::string e = testing::error_of([&] { correlate(options); });
  EXPECT_THAT(e, HasSubstr("no simulated kernel launch matched a hardware launch"));
  EXPECT_THAT(e, HasSubstr("\"void vecAdd<float>(float*, float*, float*, int)\""));
  EXPECT_THAT(e, HasSubstr("\"other()\""));
}

TEST_F(Gtx1080Vectoradd, UnsupportedMetric) {
  CorrelateOptions options;
  options.sim_files = {results_file_};
  options.hw_files = {hw_data(testing::kNvprofLog).string()};
  options.metric = "dram_bytes";
  EXPECT_EQ(testing::error_of([&] { correlate(options); }),
            "unknown --metric \"dram_bytes\"; supported: cycles");
}

// "5,773.25", "4,784.5", "512": as docs/CORRELATION.md writes numbers.
std::string grouped(double value) {
  std::string text = fmt::format("{}", value);
  const std::size_t dot = std::min(text.find('.'), text.size());
  for (std::size_t i = dot; i > 3; i -= 3) text.insert(i - 3, ",");
  return text;
}

// docs/CORRELATION.md's table of this check holds the figures of the model as it is.
TEST_F(Gtx1080Vectoradd, TheDocsTableIsCurrent) {
  struct Row {
    const char* file;
    const char* metric;
  };
  const Row rows[] = {{testing::kNsightCsv, ""},
                      {testing::kNsightCsv, "gpu__time_duration"},
                      {testing::kNvprofLog, ""},
                      {testing::kNvprofMetrics, ""}};
  std::ifstream in(std::filesystem::path(SASSIM_SOURCE_DIR) / "docs" / "CORRELATION.md");
  std::ostringstream text;
  text << in.rdbuf();
  const std::string doc = text.str();
  ASSERT_FALSE(doc.empty());
  for (const Row& row : rows) {
    CorrelateOptions options;
    options.sim_files = {results_file_};
    options.hw_files = {hw_data(row.file).string()};
    options.hw.metric = row.metric;
    const Correlation c = correlate(options);
    ASSERT_EQ(c.match.matched.size(), 1U) << row.file;
    const MatchedKernel& m = c.match.matched[0];
    const std::string cells = fmt::format("| {} | {} | {:+.1f}% |", grouped(m.hw.cycles),
                                          grouped(m.sim.cycles), relative_error_percent(m));
    EXPECT_NE(doc.find(cells), std::string::npos) << "docs/CORRELATION.md, the row of " << row.file
                                                  << " " << row.metric << ": write " << cells;
  }
}

}  // namespace
}  // namespace sassim::correlate
