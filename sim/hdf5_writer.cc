#include "sim/hdf5_writer.h"

#include <H5Cpp.h>

#include <map>
#include <set>

#include <fmt/format.h>

#include "isa/error.h"

namespace sassim::sim {
namespace {

struct KernelRow {
  std::uint32_t id;
  const char* name;
  std::uint32_t grid_x, grid_y, grid_z, block_x, block_y, block_z;
  std::uint64_t start_cycle, cycles, warp_instructions;
  double ipc, l1_hit_rate, l2_hit_rate, dram_bytes, dram_gbps, tensor_utilisation, tensor_tflops,
      host_seconds;
};

H5::CompType kernel_row_type() {
  H5::StrType str(H5::PredType::C_S1, H5T_VARIABLE);
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
  return t;
}

void write_string_attribute(H5::H5Object& object, const char* name, const std::string& value) {
  H5::StrType str(H5::PredType::C_S1, H5T_VARIABLE);
  H5::Attribute a = object.createAttribute(name, str, H5::DataSpace(H5S_SCALAR));
  const char* p = value.c_str();
  a.write(str, &p);
}

void write_kernels(H5::H5File& file, const std::vector<KernelResult>& results) {
  std::vector<KernelRow> rows;
  for (const KernelResult& r : results) {
    rows.push_back({r.info.id, r.info.name.c_str(), r.info.grid.x, r.info.grid.y, r.info.grid.z,
                    r.info.block.x, r.info.block.y, r.info.block.z, r.start_cycle, r.cycles,
                    r.warp_insts, r.ipc, r.l1_hit_rate, r.l2_hit_rate, r.dram_bytes, r.dram_gbps,
                    r.tensor_utilisation, r.tensor_tflops, r.host_seconds});
  }
  hsize_t dims[1] = {rows.size()};
  H5::CompType type = kernel_row_type();
  H5::DataSet ds = file.createDataSet("kernels", type, H5::DataSpace(1, dims));
  if (!rows.empty()) ds.write(rows.data(), type);
}

void write_matrix(H5::Group& group, const std::string& name, const std::vector<double>& values,
                  hsize_t rows, hsize_t cols) {
  hsize_t dims[2] = {rows, cols};
  H5::DataSet ds = group.createDataSet(name, H5::PredType::NATIVE_DOUBLE, H5::DataSpace(2, dims));
  if (!values.empty()) ds.write(values.data(), H5::PredType::NATIVE_DOUBLE);
}

void write_stats(H5::H5File& file, const std::vector<KernelResult>& results,
                 std::uint32_t num_sms) {
  std::set<std::string> names;
  for (const KernelResult& r : results) {
    for (const auto& [name, value] : r.stats.values()) names.insert(name);
  }
  H5::Group stats = file.createGroup("stats");
  std::vector<const char*> name_ptrs;
  for (const std::string& n : names) name_ptrs.push_back(n.c_str());
  H5::StrType str(H5::PredType::C_S1, H5T_VARIABLE);
  hsize_t dims[1] = {name_ptrs.size()};
  H5::DataSet ds = stats.createDataSet("names", str, H5::DataSpace(1, dims));
  if (!name_ptrs.empty()) ds.write(name_ptrs.data(), str);
  std::vector<double> values;
  for (const KernelResult& r : results) {
    for (const std::string& n : names) values.push_back(r.stats.get(n));
  }
  write_matrix(stats, "values", values, results.size(), names.size());

  // Per-SM counters: "gpu.sm[<i>].<counter>" regrouped as /per_sm/<counter>[kernel][sm].
  std::map<std::string, std::vector<double>> per_sm;
  const std::string prefix = "gpu.sm[";
  for (std::size_t k = 0; k < results.size(); ++k) {
    for (const auto& [name, value] : results[k].stats.values()) {
      if (name.compare(0, prefix.size(), prefix) != 0) continue;
      const std::size_t close = name.find("].", prefix.size());
      if (close == std::string::npos) continue;
      const auto sm = std::stoul(name.substr(prefix.size(), close - prefix.size()));
      auto& matrix = per_sm[name.substr(close + 2)];
      matrix.resize(results.size() * num_sms, 0.0);
      if (sm < num_sms) matrix[k * num_sms + sm] = value;
    }
  }
  H5::Group group = file.createGroup("per_sm");
  for (const auto& [counter, matrix] : per_sm) {
    write_matrix(group, counter, matrix, results.size(), num_sms);
  }
}

}  // namespace

void write_hdf5(const std::filesystem::path& file, const RunInfo& run,
                const std::vector<KernelResult>& results) {
  try {
    H5::Exception::dontPrint();
    H5::H5File h5(file.string(), H5F_ACC_TRUNC);
    write_string_attribute(h5, "sassim_version", "0.1.0");
    write_string_attribute(h5, "trace", run.trace);
    write_string_attribute(h5, "config_name", run.config_name);
    {
      H5::StrType str(H5::PredType::C_S1, H5T_VARIABLE);
      H5::DataSet cfg = h5.createDataSet("config", str, H5::DataSpace(H5S_SCALAR));
      const char* p = run.config_text.c_str();
      cfg.write(&p, str);
    }
    write_kernels(h5, results);
    write_stats(h5, results, run.num_sms);
  } catch (const H5::Exception& e) {
    throw Error(fmt::format("{}: cannot write results: {}", file.string(), e.getDetailMsg()));
  }
}

}  // namespace sassim::sim
