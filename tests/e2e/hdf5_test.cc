// The HDF5 results file holds what the run produced, in the documented layout.
#include <gtest/gtest.h>

#include <H5Cpp.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <memory>

#include "e2e_fixtures.h"
#include "ground/version.h"
#include "sim/hdf5_writer.h"
#include "tests/support/scratch_dir.h"

namespace sassim::e2e {
namespace {

struct Row {
  std::uint32_t id;
  char* name;
  std::uint64_t cycles;
  std::uint64_t warp_instructions;
  double ipc;
};

TEST(Hdf5Results, KernelsTableAndConfigReadBack) {
  const ReferenceTrace& t = reference_traces()[3];
  const config::GpuConfig cfg = config::load_config(t.preset);
  const auto results = replay(t);
  const auto file = test_support::scratch_path("hdf5_test").replace_extension(".h5");
  sim::write_hdf5(file, {t.path, t.preset, config::to_text(cfg), cfg.num_sms()}, results);

  H5::H5File h5(file.string(), H5F_ACC_RDONLY);
  H5::DataSet kernels = h5.openDataSet("kernels");
  hsize_t n = 0;
  kernels.getSpace().getSimpleExtentDims(&n);
  ASSERT_EQ(n, results.size());

  H5::StrType str(H5::PredType::C_S1, H5T_VARIABLE);
  str.setCset(H5T_CSET_UTF8);  // as written: h5py returns str
  H5::CompType type(sizeof(Row));
  type.insertMember("id", HOFFSET(Row, id), H5::PredType::NATIVE_UINT32);
  type.insertMember("name", HOFFSET(Row, name), str);
  type.insertMember("cycles", HOFFSET(Row, cycles), H5::PredType::NATIVE_UINT64);
  type.insertMember("warp_instructions", HOFFSET(Row, warp_instructions),
                    H5::PredType::NATIVE_UINT64);
  type.insertMember("ipc", HOFFSET(Row, ipc), H5::PredType::NATIVE_DOUBLE);
  std::vector<Row> rows(n);
  kernels.read(rows.data(), type);
  for (std::size_t k = 0; k < n; ++k) {
    EXPECT_EQ(rows[k].id, results[k].info.id);
    EXPECT_EQ(std::string(rows[k].name), results[k].info.name);
    EXPECT_EQ(rows[k].cycles, results[k].cycles);
    EXPECT_EQ(rows[k].warp_instructions, results[k].warp_insts);
    EXPECT_DOUBLE_EQ(rows[k].ipc, results[k].ipc);
    std::free(rows[k].name);
  }

  // The binary's release and commit, and one unit per /kernels column.
  H5::Attribute version = h5.openAttribute("sassim_version");
  std::string version_text;
  version.read(version.getStrType(), version_text);
  EXPECT_EQ(version_text, std::string(sassim::version()));
  H5::Attribute commit = h5.openAttribute("git_commit");
  std::string commit_text;
  commit.read(commit.getStrType(), commit_text);
  EXPECT_EQ(commit_text, std::string(sassim::git_commit()));
  EXPECT_EQ(commit.getStrType().getCset(), H5T_CSET_UTF8);
  H5::Attribute units = kernels.openAttribute("units");
  hsize_t unit_count = 0;
  units.getSpace().getSimpleExtentDims(&unit_count);
  EXPECT_EQ(unit_count, static_cast<hsize_t>(kernels.getCompType().getNmembers()));
  std::vector<char*> unit_names(unit_count);
  units.read(units.getStrType(), unit_names.data());
  EXPECT_STREQ(unit_names[9], "cycles");  // the cycles column
  EXPECT_STREQ(unit_names[15], "GB/s");   // dram_gbps
  for (char* u : unit_names) std::free(u);

  H5::DataSet config = h5.openDataSet("config");
  std::string text;
  config.read(text, str);
  EXPECT_EQ(text, config::to_text(cfg));

  H5::DataSet insts = h5.openDataSet("per_sm/warp_insts");
  hsize_t dims[2] = {0, 0};
  insts.getSpace().getSimpleExtentDims(dims);
  EXPECT_EQ(dims[0], results.size());
  EXPECT_EQ(dims[1], cfg.num_sms());
  std::vector<double> per_sm(dims[0] * dims[1]);
  insts.read(per_sm.data(), H5::PredType::NATIVE_DOUBLE);
  double total = 0;
  for (std::size_t s = 0; s < dims[1]; ++s) total += per_sm[s];  // kernel 0
  EXPECT_EQ(total, static_cast<double>(results[0].warp_insts));
  std::filesystem::remove(file);
}

// Kernel k's stats: counter i of `names` changed by value(k, i).
sim::KernelStats stats_of(const std::vector<std::string>& names, double k) {
  auto schema = std::make_shared<const sim::StatsSchema>(names);
  sim::StatsSnapshot change{schema, std::vector<double>(schema->size())};
  for (std::size_t i = 0; i < names.size(); ++i) {
    const double value = static_cast<double>(i) == k ? 0.0 : k * 10 + static_cast<double>(i);
    change.values[*schema->find(names[i])] = value;
  }
  return sim::KernelStats(change);
}

TEST(Hdf5Results, StatsOfSeveralSchemasAndManyKernelsShareOneSortedTable) {
  // Results of two GPUs: the second lacks gpu.noc.x and has gpu.sm[1].y; more kernels
  // than the writer holds in memory at once.
  const std::vector<std::string> first = {"gpu.sm[0].y", "gpu.noc.x", "gpu.sm[2].y"};
  const std::vector<std::string> second = {"gpu.sm[1].y", "gpu.sm[0].y"};
  std::vector<sim::KernelResult> results(150);
  for (std::size_t k = 0; k < results.size(); ++k) {
    results[k].stats = stats_of(k % 3 == 2 ? second : first, static_cast<double>(k));
  }
  const auto file = test_support::scratch_path("hdf5_schemas").replace_extension(".h5");
  sim::write_hdf5(file, {"t", "p", "", 2}, results);

  H5::H5File h5(file.string(), H5F_ACC_RDONLY);
  H5::DataSet names = h5.openDataSet("stats/names");
  hsize_t n = 0;
  names.getSpace().getSimpleExtentDims(&n);
  ASSERT_EQ(n, 4u);
  std::vector<char*> read_names(n);
  EXPECT_EQ(names.getStrType().getCset(), H5T_CSET_UTF8);
  names.read(read_names.data(), names.getStrType());
  const std::vector<std::string> sorted = {"gpu.noc.x", "gpu.sm[0].y", "gpu.sm[1].y",
                                           "gpu.sm[2].y"};
  for (std::size_t i = 0; i < n; ++i) {
    EXPECT_EQ(read_names[i], sorted[i]);
    std::free(read_names[i]);
  }
  std::vector<double> values(results.size() * n);
  h5.openDataSet("stats/values").read(values.data(), H5::PredType::NATIVE_DOUBLE);
  std::vector<double> per_sm(results.size() * 2);
  h5.openDataSet("per_sm/y").read(per_sm.data(), H5::PredType::NATIVE_DOUBLE);
  for (std::size_t k = 0; k < results.size(); ++k) {
    const std::vector<std::string>& own = k % 3 == 2 ? second : first;
    for (std::size_t c = 0; c < n; ++c) {
      const auto it = std::find(own.begin(), own.end(), sorted[c]);
      const double i = static_cast<double>(it - own.begin());
      const double expected =
          it == own.end() || i == static_cast<double>(k) ? 0.0 : static_cast<double>(k) * 10 + i;
      EXPECT_EQ(values[k * n + c], expected) << "kernel " << k << ", " << sorted[c];
      if (c == 1 || c == 2) {
        EXPECT_EQ(per_sm[k * 2 + (c - 1)], expected) << "kernel " << k;
      }
    }
  }
  std::filesystem::remove(file);
}

}  // namespace
}  // namespace sassim::e2e
