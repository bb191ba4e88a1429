#include "sweep/sweep_plan.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <system_error>

#include <fmt/format.h>
#include <google/protobuf/text_format.h>

#include "configs/config_loader.h"
#include "ground/error.h"
#include "sweep/spec_file.h"

namespace sassim::sweep {

namespace fs = std::filesystem;

namespace {

// Problems found while checking a spec, reported together.
class Problems {
 public:
  void add(std::string line) { lines_.push_back(std::move(line)); }
  bool empty() const { return lines_.empty(); }
  void throw_if_any() const {
    if (lines_.empty()) return;
    std::string message = "invalid sweep spec:";
    for (const std::string& line : lines_) message += "\n" + line;
    throw Error(message);
  }

 private:
  std::vector<std::string> lines_;
};

bool is_preset_name(std::string_view text) {
  return !text.empty() && text.find_first_of("/\\.") == std::string_view::npos;
}

std::string path_of(std::string_view assignment) {
  return std::string(assignment.substr(0, assignment.find('=')));
}

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : " ") + item;
  return out.empty() ? "(base config)" : out;
}

void load_base(const SpecFile& file, const fs::path& spec_dir, SweepPlan& plan,
               config::GpuConfig& base, Problems& problems) {
  const SweepSpec& spec = file.spec();
  if (!spec.has_base_config() || spec.base_config().empty()) {
    problems.add(
        fmt::format("{}: base_config is required (a preset name such as \"a100\", or a "
                    "config file relative to the spec)",
                    file.source()));
    problems.throw_if_any();
  }
  plan.base_config = spec.base_config();
  plan.base_config_arg = is_preset_name(spec.base_config())
                             ? spec.base_config()
                             : (spec_dir / spec.base_config()).lexically_normal().string();
  try {
    base = config::load_config(plan.base_config_arg);
  } catch (const Error& e) {
    problems.add(fmt::format("{}: base_config \"{}\": {}", file.where("base_config"),
                             spec.base_config(), e.what()));
    problems.throw_if_any();
  }
}

void check_traces(const SpecFile& file, const fs::path& spec_dir, SweepPlan& plan,
                  Problems& problems) {
  const SweepSpec& spec = file.spec();
  if (spec.trace_size() == 0) {
    problems.add(fmt::format("{}: no trace: give at least one `trace: \"PATH\"`", file.source()));
  }
  std::set<std::string> seen;
  for (int i = 0; i < spec.trace_size(); ++i) {
    const std::string written = fs::path(spec.trace(i)).lexically_normal().string();
    const fs::path path = (spec_dir / spec.trace(i)).lexically_normal();
    std::error_code ec;
    if (spec.trace(i).empty() || !fs::exists(path, ec)) {
      problems.add(fmt::format("{}: trace \"{}\": no such file or folder ({})",
                               file.where("trace", i), spec.trace(i), path.string()));
    } else if (!seen.insert(path.string()).second) {
      problems.add(
          fmt::format("{}: trace \"{}\" is listed twice", file.where("trace", i), spec.trace(i)));
    }
    plan.traces.push_back({written, path});
  }
}

// Applies `assignment` to a copy of the base to check its path and value.
void check_assignment(const config::GpuConfig& base, const std::string& assignment,
                      const std::string& where, Problems& problems) {
  config::GpuConfig copy = base;
  try {
    config::apply_override(copy, assignment);
  } catch (const Error& e) {
    problems.add(fmt::format("{}: {}", where, e.what()));
  }
}

void check_axes(const SpecFile& file, const config::GpuConfig& base, SweepPlan& plan,
                Problems& problems) {
  const SweepSpec& spec = file.spec();
  std::set<std::string> paths;
  for (int a = 0; a < spec.axis_size(); ++a) {
    const Axis& axis = spec.axis(a);
    if (axis.path().empty() || axis.path().find('=') != std::string::npos) {
      problems.add(fmt::format("{}: axis needs a field path such as \"sm.scheduler.policy\"",
                               file.where("axis", a)));
      continue;
    }
    if (!paths.insert(axis.path()).second) {
      problems.add(fmt::format("{}: axis \"{}\" is given twice", file.where_in("axis", a, "path"),
                               axis.path()));
    }
    if (axis.values_size() == 0) {
      problems.add(fmt::format("{}: axis \"{}\" has no values", file.where_in("axis", a, "path"),
                               axis.path()));
    }
    std::set<std::string> values;
    for (int v = 0; v < axis.values_size(); ++v) {
      const std::string where = file.where_in("axis", a, "values", v);
      if (!values.insert(axis.values(v)).second) {
        problems.add(fmt::format("{}: axis \"{}\" lists value \"{}\" twice", where, axis.path(),
                                 axis.values(v)));
      }
      check_assignment(base, axis.path() + "=" + axis.values(v), where, problems);
    }
    plan.params.push_back(axis.path());
  }
  for (int p = 0; p < spec.point_size(); ++p) {
    for (int s = 0; s < spec.point(p).set_size(); ++s) {
      const std::string& assignment = spec.point(p).set(s);
      check_assignment(base, assignment, file.where_in("point", p, "set", s), problems);
      const std::string path = path_of(assignment);
      if (std::find(plan.params.begin(), plan.params.end(), path) == plan.params.end()) {
        plan.params.push_back(path);
      }
    }
  }
}

// The axes' cartesian product (last axis fastest), then the explicit points.
std::vector<std::pair<std::vector<std::string>, std::string>> expand_points(const SpecFile& file) {
  const SweepSpec& spec = file.spec();
  std::vector<std::pair<std::vector<std::string>, std::string>> points;
  if (spec.axis_size() > 0) {
    std::vector<int> digit(static_cast<std::size_t>(spec.axis_size()), 0);
    while (true) {
      std::vector<std::string> overrides;
      for (int a = 0; a < spec.axis_size(); ++a) {
        overrides.push_back(spec.axis(a).path() + "=" +
                            spec.axis(a).values(digit[static_cast<std::size_t>(a)]));
      }
      points.emplace_back(std::move(overrides), file.where("axis", 0));
      int a = spec.axis_size() - 1;
      while (a >= 0 && ++digit[static_cast<std::size_t>(a)] == spec.axis(a).values_size()) {
        digit[static_cast<std::size_t>(a)] = 0;
        --a;
      }
      if (a < 0) break;
    }
  }
  for (int p = 0; p < spec.point_size(); ++p) {
    const auto& set = spec.point(p).set();
    points.emplace_back(std::vector<std::string>(set.begin(), set.end()), file.where("point", p));
  }
  if (spec.axis_size() == 0 && spec.point_size() == 0) points.emplace_back();
  return points;
}

void resolve_points(const SpecFile& file, const config::GpuConfig& base, SweepPlan& plan,
                    Problems& problems) {
  std::map<std::vector<std::string>, std::string> seen;
  for (auto& [overrides, where] : expand_points(file)) {
    const std::string label = where.empty() ? file.source() : where;
    if (auto [it, fresh] = seen.emplace(overrides, label); !fresh) {
      problems.add(fmt::format("{}: config point {} is the same as the one at {}", label,
                               joined(overrides), it->second));
      continue;
    }
    ConfigPoint point{overrides, base, {}};
    try {
      for (const std::string& assignment : overrides)
        config::apply_override(point.config, assignment);
      config::validate(point.config);
    } catch (const Error& e) {
      problems.add(fmt::format("{}: config point {}: {}", label, joined(overrides), e.what()));
      continue;
    }
    std::string set_fields;
    google::protobuf::TextFormat::PrintToString(point.config, &set_fields);
    point.config_digest = hash_hex(set_fields);
    plan.points.push_back(std::move(point));
  }
}

std::string run_key(const SweepPlan& plan, const SweepRun& run) {
  std::string key =
      "trace=" + plan.traces[run.trace].written + "\nbase_config=" + plan.base_config + "\n";
  for (const std::string& assignment : plan.points[run.point].overrides) {
    key += "set=" + assignment + "\n";
  }
  return key;
}

}  // namespace

std::string hash_hex(std::string_view text) {
  std::uint64_t hash = 14695981039346656037ull;
  for (const char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ull;
  }
  return fmt::format("{:016x}", hash);
}

SweepPlan load_sweep_plan(const fs::path& spec_path, const std::optional<fs::path>& output) {
  const SpecFile file = SpecFile::read(spec_path);
  const SweepSpec& spec = file.spec();
  SweepPlan plan;
  plan.spec_path = fs::absolute(spec_path).lexically_normal();
  const fs::path spec_dir = plan.spec_path.parent_path();
  plan.slurm = spec.slurm();
  Problems problems;
  config::GpuConfig base;
  load_base(file, spec_dir, plan, base, problems);
  check_traces(file, spec_dir, plan, problems);
  check_axes(file, base, plan, problems);
  if (output) {
    plan.output = fs::absolute(*output).lexically_normal();
  } else if (spec.has_output() && !spec.output().empty()) {
    plan.output = (spec_dir / spec.output()).lexically_normal();
  } else {
    problems.add(fmt::format("{}: no output folder: set `output: \"DIR\"` or pass --out DIR",
                             file.source()));
  }
  plan.sample = spec.sample();
  if (plan.sample != "off" && plan.sample != "kernels" && plan.sample != "ctas" &&
      plan.sample != "all") {
    problems.add(
        fmt::format("{}: sample = \"{}\": expected \"off\", \"kernels\", \"ctas\" or \"all\"",
                    file.where("sample"), plan.sample));
  }
  if (!(spec.slurm().poll_seconds() > 0)) {
    problems.add(fmt::format("{}: slurm.poll_seconds must be positive", file.where("slurm")));
  }
  problems.throw_if_any();
  resolve_points(file, base, plan, problems);
  problems.throw_if_any();

  std::map<std::string, std::size_t> ids;
  for (std::size_t t = 0; t < plan.traces.size(); ++t) {
    for (std::size_t p = 0; p < plan.points.size(); ++p) {
      SweepRun run{plan.runs.size(), "", t, p};
      run.id = hash_hex(run_key(plan, run)).substr(0, 12);
      if (auto [it, fresh] = ids.emplace(run.id, run.index); !fresh) {
        throw Error(fmt::format("runs {} and {} have the same id {}; change one of them",
                                it->second, run.index, run.id));
      }
      plan.runs.push_back(std::move(run));
    }
  }
  return plan;
}

std::string run_record(const SweepPlan& plan, const SweepRun& run) {
  // Runs without sampling record what they always did.
  const std::string sample = plan.sample == "off" ? "" : fmt::format("sample: {}\n", plan.sample);
  return fmt::format("sassim sweep run\nid: {}\n{}config_digest: {}\n{}", run.id,
                     run_key(plan, run), plan.points[run.point].config_digest, sample);
}

}  // namespace sassim::sweep
