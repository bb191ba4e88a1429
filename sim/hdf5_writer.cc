#include "sim/hdf5_writer.h"

#include <H5Cpp.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <set>

#include <fmt/format.h>

#include "ground/error.h"
#include "ground/file_seal.h"
#include "ground/version.h"
#include "sim/hdf5_energy.h"

namespace sassim::sim {
namespace {

// Variable-length UTF-8 strings: h5py returns them as str, not bytes.
H5::StrType utf8_string() {
  H5::StrType str(H5::PredType::C_S1, H5T_VARIABLE);
  str.setCset(H5T_CSET_UTF8);
  return str;
}

// The unit of each /kernels column, in column order (docs/RESULTS.md).
constexpr const char* kKernelUnits[] = {"",
                                        "",
                                        "CTAs",
                                        "CTAs",
                                        "CTAs",
                                        "threads",
                                        "threads",
                                        "threads",
                                        "cycles",
                                        "cycles",
                                        "warp instructions",
                                        "warp instructions per cycle",
                                        "fraction",
                                        "fraction",
                                        "bytes",
                                        "GB/s",
                                        "fraction",
                                        "TFLOP/s",
                                        "seconds",
                                        "",
                                        "warp instructions",
                                        "%",
                                        "J",
                                        "W",
                                        "J/FLOP",
                                        "J/byte"};
// The units of the speed-of-light columns after them: bound_by, sol_<limit>_pct,
// sol_tensor_<type>_pct, arithmetic_intensity (sim/speed_of_light.h).
constexpr const char* kSolUnits[] = {"",  "%", "%", "%", "%", "%", "%", "%", "%",        "%",
                                     "%", "%", "%", "%", "%", "%", "%", "%", "FLOP/byte"};
static_assert(std::size(kSolUnits) == kNumSolColumns + 1);

struct KernelRow {
  std::uint32_t id;
  const char* name;
  std::uint32_t grid_x, grid_y, grid_z, block_x, block_y, block_z;
  std::uint64_t start_cycle, cycles, warp_instructions;
  double ipc, l1_hit_rate, l2_hit_rate, dram_bytes, dram_gbps, tensor_utilisation, tensor_tflops,
      host_seconds;
  std::uint8_t sampled;
  std::uint64_t simulated_warp_instructions;
  double cycles_ci95_pct;
  // Energy (sim/energy_model.h); NaN when the config has no energy section.
  double energy_j, avg_power_w, energy_per_flop_j, energy_per_dram_byte_j;
  const char* bound_by;
  std::array<double, kNumSolColumns> sol;
};

H5::CompType kernel_row_type() {
  const H5::StrType str = utf8_string();
  H5::CompType t(sizeof(KernelRow));
  t.insertMember("id", HOFFSET(KernelRow, id), H5::PredType::NATIVE_UINT32);
  t.insertMember("name", HOFFSET(KernelRow, name), str);
  t.insertMember("grid_x", HOFFSET(KernelRow, grid_x), H5::PredType::NATIVE_UINT32);
  t.insertMember("grid_y", HOFFSET(KernelRow, grid_y), H5::PredType::NATIVE_UINT32);
  t.insertMember("grid_z", HOFFSET(KernelRow, grid_z), H5::PredType::NATIVE_UINT32);
  t.insertMember("block_x", HOFFSET(KernelRow, block_x), H5::PredType::NATIVE_UINT32);
  t.insertMember("block_y", HOFFSET(KernelRow, block_y), H5::PredType::NATIVE_UINT32);
  t.insertMember("block_z", HOFFSET(KernelRow, block_z), H5::PredType::NATIVE_UINT32);
  t.insertMember("start_cycle", HOFFSET(KernelRow, start_cycle), H5::PredType::NATIVE_UINT64);
  t.insertMember("cycles", HOFFSET(KernelRow, cycles), H5::PredType::NATIVE_UINT64);
  t.insertMember("warp_instructions", HOFFSET(KernelRow, warp_instructions),
                 H5::PredType::NATIVE_UINT64);
  t.insertMember("ipc", HOFFSET(KernelRow, ipc), H5::PredType::NATIVE_DOUBLE);
  t.insertMember("l1_hit_rate", HOFFSET(KernelRow, l1_hit_rate), H5::PredType::NATIVE_DOUBLE);
  t.insertMember("l2_hit_rate", HOFFSET(KernelRow, l2_hit_rate), H5::PredType::NATIVE_DOUBLE);
  t.insertMember("dram_bytes", HOFFSET(KernelRow, dram_bytes), H5::PredType::NATIVE_DOUBLE);
  t.insertMember("dram_gbps", HOFFSET(KernelRow, dram_gbps), H5::PredType::NATIVE_DOUBLE);
  t.insertMember("tensor_utilisation", HOFFSET(KernelRow, tensor_utilisation),
                 H5::PredType::NATIVE_DOUBLE);
  t.insertMember("tensor_tflops", HOFFSET(KernelRow, tensor_tflops), H5::PredType::NATIVE_DOUBLE);
  t.insertMember("host_seconds", HOFFSET(KernelRow, host_seconds), H5::PredType::NATIVE_DOUBLE);
  t.insertMember("sampled", HOFFSET(KernelRow, sampled), H5::PredType::NATIVE_UINT8);
  t.insertMember("simulated_warp_instructions", HOFFSET(KernelRow, simulated_warp_instructions),
                 H5::PredType::NATIVE_UINT64);
  t.insertMember("cycles_ci95_pct", HOFFSET(KernelRow, cycles_ci95_pct),
                 H5::PredType::NATIVE_DOUBLE);
  t.insertMember("energy_j", HOFFSET(KernelRow, energy_j), H5::PredType::NATIVE_DOUBLE);
  t.insertMember("avg_power_w", HOFFSET(KernelRow, avg_power_w), H5::PredType::NATIVE_DOUBLE);
  t.insertMember("energy_per_flop_j", HOFFSET(KernelRow, energy_per_flop_j),
                 H5::PredType::NATIVE_DOUBLE);
  t.insertMember("energy_per_dram_byte_j", HOFFSET(KernelRow, energy_per_dram_byte_j),
                 H5::PredType::NATIVE_DOUBLE);
  t.insertMember("bound_by", HOFFSET(KernelRow, bound_by), str);
  const std::array<SolColumn, kNumSolColumns> names = sol_columns(SpeedOfLight{});
  for (std::size_t i = 0; i < kNumSolColumns; ++i) {
    t.insertMember(names[i].name, HOFFSET(KernelRow, sol) + i * sizeof(double),
                   H5::PredType::NATIVE_DOUBLE);
  }
  return t;
}

void write_string_attribute(H5::H5Object& object, const char* name, const std::string& value) {
  const H5::StrType str = utf8_string();
  H5::Attribute a = object.createAttribute(name, str, H5::DataSpace(H5S_SCALAR));
  const char* p = value.c_str();
  a.write(str, &p);
}

double energy_or_nan(const KernelResult& r, double value) {
  return r.energy.modelled ? value : std::nan("");
}

// /peaks: one row per peak rate of the config (configs/peaks.h peak_rows).
void write_peaks(H5::H5File& file, const config::GpuPeaks& peaks) {
  struct Row {
    const char* name;
    double value;
    const char* unit;
  };
  const std::vector<config::PeakRow> named = config::peak_rows(peaks);
  std::vector<Row> rows;
  for (const config::PeakRow& p : named) rows.push_back({p.name.c_str(), p.value, p.unit.c_str()});
  const H5::StrType str = utf8_string();
  H5::CompType type(sizeof(Row));
  type.insertMember("name", HOFFSET(Row, name), str);
  type.insertMember("value", HOFFSET(Row, value), H5::PredType::NATIVE_DOUBLE);
  type.insertMember("unit", HOFFSET(Row, unit), str);
  hsize_t dims[1] = {rows.size()};
  H5::DataSet ds = file.createDataSet("peaks", type, H5::DataSpace(1, dims));
  ds.write(rows.data(), type);
}

void write_kernels(H5::H5File& file, const std::vector<KernelResult>& results) {
  std::vector<KernelRow> rows;
  for (const KernelResult& r : results) {
    rows.push_back({r.info.id,
                    r.info.name.c_str(),
                    r.info.grid.x,
                    r.info.grid.y,
                    r.info.grid.z,
                    r.info.block.x,
                    r.info.block.y,
                    r.info.block.z,
                    r.start_cycle,
                    r.cycles,
                    r.warp_insts,
                    r.ipc,
                    r.l1_hit_rate,
                    r.l2_hit_rate,
                    r.dram_bytes,
                    r.dram_gbps,
                    r.tensor_utilisation,
                    r.tensor_tflops,
                    r.host_seconds,
                    static_cast<std::uint8_t>(r.sampled ? 1 : 0),
                    r.simulated_warp_insts,
                    r.cycles_ci95_pct,
                    energy_or_nan(r, r.energy.total_j),
                    energy_or_nan(r, r.energy.avg_power_w),
                    energy_or_nan(r, r.energy.j_per_flop),
                    energy_or_nan(r, r.energy.j_per_dram_byte),
                    r.sol.bound_by_name().data(),
                    {}});
    const std::array<SolColumn, kNumSolColumns> sol = sol_columns(r.sol);
    for (std::size_t i = 0; i < kNumSolColumns; ++i) rows.back().sol[i] = sol[i].value;
  }
  hsize_t dims[1] = {rows.size()};
  H5::CompType type = kernel_row_type();
  H5::DataSet ds = file.createDataSet("kernels", type, H5::DataSpace(1, dims));
  if (!rows.empty()) ds.write(rows.data(), type);
  // `units`: one string per column, in column order.
  std::vector<const char*> all_units(std::begin(kKernelUnits), std::end(kKernelUnits));
  all_units.insert(all_units.end(), std::begin(kSolUnits), std::end(kSolUnits));
  const hsize_t kColumns = all_units.size();
  if (static_cast<hsize_t>(type.getNmembers()) != kColumns) {
    throw Error(fmt::format("internal: /kernels has {} columns and {} units", type.getNmembers(),
                            kColumns));
  }
  const H5::StrType str = utf8_string();
  H5::Attribute units = ds.createAttribute("units", str, H5::DataSpace(1, &kColumns));
  units.write(str, all_units.data());
}

// Every counter name of the results, sorted, and where each schema's counters fall
// among them (the results of one Gpu share one schema).
struct Columns {
  std::vector<std::string> names;
  std::map<const StatsSchema*, std::vector<std::uint32_t>> of_schema;

  explicit Columns(const std::vector<KernelResult>& results) {
    std::vector<const StatsSchema*> schemas;
    for (const KernelResult& r : results) {
      const StatsSchema* s = r.stats.schema().get();
      if (s != nullptr && std::find(schemas.begin(), schemas.end(), s) == schemas.end()) {
        schemas.push_back(s);
      }
    }
    std::set<std::string> all;
    for (const StatsSchema* s : schemas) all.insert(s->names().begin(), s->names().end());
    names.assign(all.begin(), all.end());
    for (const StatsSchema* s : schemas) {
      std::vector<std::uint32_t>& columns = of_schema[s];
      for (const std::string& name : s->names()) {
        auto it = std::lower_bound(names.begin(), names.end(), name);
        columns.push_back(static_cast<std::uint32_t>(it - names.begin()));
      }
    }
  }
};

// Per-SM counters: "gpu.sm[<i>].<counter>" regrouped as /per_sm/<counter>[kernel][sm].
struct PerSm {
  std::vector<std::string> counters;  // sorted
  // Of each column: its counter in `counters` and its SM, or no counter.
  static constexpr std::uint32_t kNone = ~std::uint32_t{0};
  std::vector<std::uint32_t> counter_of;
  std::vector<std::uint32_t> sm_of;

  explicit PerSm(const std::vector<std::string>& names) {
    const std::string prefix = "gpu.sm[";
    std::vector<std::pair<std::string, std::uint32_t>> parsed;  // per column
    std::set<std::string> all;
    for (const std::string& name : names) {
      parsed.emplace_back(std::string(), 0);
      if (name.compare(0, prefix.size(), prefix) != 0) continue;
      const std::size_t close = name.find("].", prefix.size());
      if (close == std::string::npos) continue;
      parsed.back() = {name.substr(close + 2), static_cast<std::uint32_t>(std::stoul(name.substr(
                                                   prefix.size(), close - prefix.size())))};
      all.insert(parsed.back().first);
    }
    counters.assign(all.begin(), all.end());
    for (const auto& [counter, sm] : parsed) {
      if (counter.empty()) {
        counter_of.push_back(kNone);
        sm_of.push_back(0);
        continue;
      }
      auto it = std::lower_bound(counters.begin(), counters.end(), counter);
      counter_of.push_back(static_cast<std::uint32_t>(it - counters.begin()));
      sm_of.push_back(sm);
    }
  }
};

// Kernels written per block of rows, so the matrices never sit whole in memory.
constexpr std::size_t kRowsPerBlock = 64;
constexpr hsize_t kMaxChunkColumns = 1024;

void write_rows(H5::DataSet& ds, const std::vector<double>& block, hsize_t first_row, hsize_t rows,
                hsize_t cols) {
  if (rows == 0 || cols == 0) return;
  H5::DataSpace file_space = ds.getSpace();
  const hsize_t start[2] = {first_row, 0};
  const hsize_t count[2] = {rows, cols};
  file_space.selectHyperslab(H5S_SELECT_SET, count, start);
  H5::DataSpace memory_space(2, count);
  ds.write(block.data(), H5::PredType::NATIVE_DOUBLE, memory_space, file_space);
}

// A [rows x cols] float64 matrix stored in chunks of kRowsPerBlock rows, byte-shuffled
// and deflated: most counters of most kernels are zero, so a 1,000-launch run on 108
// SMs takes about a megabyte instead of a hundred. Readers see the same dataset.
H5::DataSet create_matrix(H5::Group& group, const std::string& name, hsize_t rows, hsize_t cols) {
  hsize_t dims[2] = {rows, cols};
  H5::DSetCreatPropList layout;
  if (rows > 0 && cols > 0) {
    const hsize_t chunk[2] = {std::min<hsize_t>(rows, kRowsPerBlock),
                              std::min<hsize_t>(cols, kMaxChunkColumns)};
    layout.setChunk(2, chunk);
    layout.setShuffle();
    layout.setDeflate(1);
  }
  return group.createDataSet(name, H5::PredType::NATIVE_DOUBLE, H5::DataSpace(2, dims), layout);
}

void write_stats(H5::H5File& file, const std::vector<KernelResult>& results,
                 std::uint32_t num_sms) {
  const Columns columns(results);
  const std::vector<std::string>& names = columns.names;
  H5::Group stats = file.createGroup("stats");
  std::vector<const char*> name_ptrs;
  for (const std::string& n : names) name_ptrs.push_back(n.c_str());
  const H5::StrType str = utf8_string();
  hsize_t dims[1] = {name_ptrs.size()};
  H5::DataSet ds = stats.createDataSet("names", str, H5::DataSpace(1, dims));
  if (!name_ptrs.empty()) ds.write(name_ptrs.data(), str);
  H5::DataSet values = create_matrix(stats, "values", results.size(), names.size());

  const PerSm per_sm(names);
  H5::Group group = file.createGroup("per_sm");
  std::vector<H5::DataSet> per_sm_sets;
  for (const std::string& counter : per_sm.counters) {
    per_sm_sets.push_back(create_matrix(group, counter, results.size(), num_sms));
  }
  std::vector<double> block;
  std::vector<std::vector<double>> per_sm_blocks(per_sm.counters.size());
  for (std::size_t first = 0; first < results.size(); first += kRowsPerBlock) {
    const std::size_t rows = std::min(kRowsPerBlock, results.size() - first);
    block.assign(rows * names.size(), 0.0);
    for (auto& b : per_sm_blocks) b.assign(rows * num_sms, 0.0);
    for (std::size_t k = 0; k < rows; ++k) {
      const KernelStats& s = results[first + k].stats;
      if (!s.schema()) continue;
      const std::vector<std::uint32_t>& column_of = columns.of_schema.at(s.schema().get());
      for (std::size_t e = 0; e < s.changed_indices().size(); ++e) {
        const std::uint32_t column = column_of[s.changed_indices()[e]];
        const double value = s.changed_values()[e];
        block[k * names.size() + column] = value;
        const std::uint32_t counter = per_sm.counter_of[column];
        const std::uint32_t sm = per_sm.sm_of[column];
        if (counter != PerSm::kNone && sm < num_sms)
          per_sm_blocks[counter][k * num_sms + sm] = value;
      }
    }
    write_rows(values, block, first, rows, names.size());
    for (std::size_t c = 0; c < per_sm_sets.size(); ++c) {
      write_rows(per_sm_sets[c], per_sm_blocks[c], first, rows, num_sms);
    }
  }
}

}  // namespace

void write_hdf5(const std::filesystem::path& file, const RunInfo& run,
                const std::vector<KernelResult>& results) {
  try {
    H5::Exception::dontPrint();
    H5::FileCreatPropList create;
    create.setUserblock(kSealBytes);  // the seal (ground/file_seal.h), written after closing
    H5::H5File h5(file.string(), H5F_ACC_TRUNC, create);
    write_string_attribute(h5, "sassim_version", std::string(version()));
    write_string_attribute(h5, "git_commit", std::string(git_commit()));
    write_string_attribute(h5, "trace", run.trace);
    write_string_attribute(h5, "config_name", run.config_name);
    {
      const std::uint8_t partial = run.partial ? 1 : 0;
      H5::Attribute a =
          h5.createAttribute("partial", H5::PredType::NATIVE_UINT8, H5::DataSpace(H5S_SCALAR));
      a.write(H5::PredType::NATIVE_UINT8, &partial);
    }
    write_string_attribute(h5, "sampling", run.sampling);
    {
      H5::Attribute a = h5.createAttribute("cycles_ci95_pct", H5::PredType::NATIVE_DOUBLE,
                                           H5::DataSpace(H5S_SCALAR));
      a.write(H5::PredType::NATIVE_DOUBLE, &run.cycles_ci95_pct);
    }
    {
      const H5::StrType str = utf8_string();
      H5::DataSet cfg = h5.createDataSet("config", str, H5::DataSpace(H5S_SCALAR));
      const char* p = run.config_text.c_str();
      cfg.write(&p, str);
    }
    write_kernels(h5, results);
    if (run.peaks) write_peaks(h5, *run.peaks);
    write_stats(h5, results, run.num_sms);
    write_energy(h5, results);
  } catch (const H5::Exception& e) {
    throw Error(fmt::format("{}: cannot write results: {}", file.string(), e.getDetailMsg()));
  }
  write_seal(file);
}

}  // namespace sassim::sim
