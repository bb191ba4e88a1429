#include "sweep/merge.h"

#include <map>
#include <set>

#include <fmt/format.h>

#include "ground/error.h"
#include "sweep/durable_files.h"
#include "sweep/param_column.h"
#include "sweep/results_reader.h"

namespace sassim::sweep {

namespace {

std::string kernel_column_name(const std::string& name) {
  if (name == "id") return "kernel_id";
  if (name == "name") return "kernel_name";
  return name;
}

// Appends rows [0, count) of `from` to `to`; both hold the same type.
void append_values(Column& to, const Column& from, std::size_t count) {
  if (to.values.index() != from.values.index()) {
    throw Error(fmt::format("kernel column '{}' has different types in different results files",
                            from.name));
  }
  std::visit(
      [&](auto& target) {
        const auto& source = std::get<std::decay_t<decltype(target)>>(from.values);
        target.insert(target.end(), source.begin(),
                      source.begin() + static_cast<std::ptrdiff_t>(count));
      },
      to.values);
}

struct Finished {
  const SweepRun* run;
  RunResults results;
};

}  // namespace

bool run_finished(const SweepPlan& plan, const SweepLayout& layout, const SweepRun& run) {
  const auto marker = read_text_file(layout.marker(run.id));
  return marker && *marker == run_record(plan, run);
}

MergedTable merge_results(const SweepPlan& plan, const SweepLayout& layout) {
  std::vector<Finished> finished;
  for (const SweepRun& run : plan.runs) {
    if (!run_finished(plan, layout, run)) continue;
    finished.push_back({&run, read_run_results(layout.run_dir(run.id) / kResultsName)});
  }

  // Kernel columns in the order of the first file that has them; counters sorted.
  std::vector<Column> kernel_columns;
  std::map<std::string, std::size_t> kernel_index;
  std::set<std::string> stat_names;
  for (const Finished& f : finished) {
    for (const Column& c : f.results.kernels) {
      const std::string name = kernel_column_name(c.name);
      if (kernel_index.emplace(name, kernel_columns.size()).second) {
        Column empty{name, c.values};
        std::visit([](auto& v) { v.clear(); }, empty.values);
        kernel_columns.push_back(std::move(empty));
      }
    }
    stat_names.insert(f.results.stat_names.begin(), f.results.stat_names.end());
  }

  Column run_index{"run_index", std::vector<std::uint64_t>{}};
  Column run_id{"run_id", std::vector<std::string>{}};
  Column trace{"trace", std::vector<std::string>{}};
  std::vector<Column> params;
  for (const std::string& path : plan.params) params.push_back(make_param_column(path));
  std::vector<std::vector<double>> stats(stat_names.size());
  std::map<std::string, std::size_t> stat_index;
  for (const std::string& name : stat_names) stat_index.emplace(name, stat_index.size());

  for (const Finished& f : finished) {
    const std::size_t rows = f.results.kernel_count;
    for (std::size_t k = 0; k < rows; ++k) {
      std::get<1>(run_index.values).push_back(f.run->index);
      std::get<3>(run_id.values).push_back(f.run->id);
      std::get<3>(trace.values).push_back(plan.traces[f.run->trace].written);
      for (Column& p : params) append_param_value(p, plan.points[f.run->point].config);
    }
    std::vector<bool> filled(kernel_columns.size(), false);
    for (const Column& c : f.results.kernels) {
      const std::size_t at = kernel_index.at(kernel_column_name(c.name));
      append_values(kernel_columns[at], c, rows);
      filled[at] = true;
    }
    for (std::size_t c = 0; c < kernel_columns.size(); ++c) {
      if (!filled[c]) pad_column(kernel_columns[c], rows);
    }
    for (std::vector<double>& s : stats) s.resize(s.size() + rows, 0.0);
    const std::size_t base_row = stats.empty() ? 0 : stats.front().size() - rows;
    const std::size_t n = f.results.stat_names.size();
    for (std::size_t j = 0; j < n; ++j) {
      std::vector<double>& column = stats[stat_index.at(f.results.stat_names[j])];
      for (std::size_t k = 0; k < rows; ++k) {
        column[base_row + k] = f.results.stat_values[k * n + j];
      }
    }
  }

  MergedTable merged;
  merged.runs = finished.size();
  std::vector<Column>& columns = merged.table.columns;
  columns.push_back(std::move(run_index));
  columns.push_back(std::move(run_id));
  columns.push_back(std::move(trace));
  for (Column& c : params) columns.push_back(std::move(c));
  for (Column& c : kernel_columns) columns.push_back(std::move(c));
  std::size_t s = 0;
  for (const std::string& name : stat_names) columns.push_back({name, std::move(stats[s++])});
  std::set<std::string> names;
  for (const Column& c : columns) {
    if (!names.insert(c.name).second) {
      throw Error(fmt::format("merged table: two columns are named '{}'", c.name));
    }
  }
  return merged;
}

}  // namespace sassim::sweep
