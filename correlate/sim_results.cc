#include "correlate/sim_results.h"

#include <H5Cpp.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <regex>

#include <fmt/format.h>

#include "correlate/csv_table.h"
#include "ground/error.h"
#include "ground/file_seal.h"

namespace sassim::correlate {
namespace {

struct KernelRow {
  std::uint32_t id;
  char* name;
  std::uint64_t cycles;
};

std::string read_string_attribute(const H5::H5File& h5, const char* name) {
  if (!h5.attrExists(name)) return "";
  H5::Attribute a = h5.openAttribute(name);
  std::string value;
  a.read(a.getStrType(), value);
  return value;
}

std::optional<double> core_mhz_from_config(const std::string& text) {
  static const std::regex kCoreMhz(R"(core_mhz:\s*([0-9.eE+-]+))");
  std::smatch m;
  if (!std::regex_search(text, m, kCoreMhz)) return std::nullopt;
  return parse_number(m[1].str());
}

SimRun read_hdf5(const std::string& file) {
  if (!std::filesystem::exists(file)) throw Error(fmt::format("{}: no such file", file));
  if (!H5::H5File::isHdf5(file)) {
    throw Error(
        fmt::format("{}: not an HDF5 file; expected a results file written by "
                    "`sassim run --out FILE.h5`",
                    file));
  }
  check_seal(file);  // a damaged file is an error here, not a crash inside HDF5
  SimRun run{file, "", "", std::nullopt, {}};
  H5::H5File h5(file, H5F_ACC_RDONLY);
  if (!h5.nameExists("kernels")) {
    throw Error(
        fmt::format("{}: no /kernels table; expected a results file written by "
                    "`sassim run --out FILE.h5` (docs/RESULTS.md)",
                    file));
  }
  if (h5.attrExists("partial")) {
    std::uint8_t partial = 0;
    h5.openAttribute("partial").read(H5::PredType::NATIVE_UINT8, &partial);
    if (partial != 0) {
      throw Error(fmt::format(
          "{}: the run was stopped before its end (attribute partial = 1) and holds only "
          "the kernels finished by then; replay the trace to its end to correlate it",
          file));
    }
  }
  run.trace = read_string_attribute(h5, "trace");
  run.config_name = read_string_attribute(h5, "config_name");
  if (h5.nameExists("config")) {
    H5::DataSet config = h5.openDataSet("config");
    std::string text;
    config.read(text, config.getStrType());
    run.core_mhz = core_mhz_from_config(text);
  }
  H5::DataSet kernels = h5.openDataSet("kernels");
  hsize_t n = 0;
  kernels.getSpace().getSimpleExtentDims(&n);
  H5::StrType str(H5::PredType::C_S1, H5T_VARIABLE);
  {  // the names' character set as written (UTF-8; ASCII in older files)
    const H5::CompType file_type = kernels.getCompType();
    const int name = file_type.getMemberIndex("name");
    str.setCset(file_type.getMemberStrType(static_cast<unsigned>(name)).getCset());
  }
  H5::CompType type(sizeof(KernelRow));
  type.insertMember("id", HOFFSET(KernelRow, id), H5::PredType::NATIVE_UINT32);
  type.insertMember("name", HOFFSET(KernelRow, name), str);
  type.insertMember("cycles", HOFFSET(KernelRow, cycles), H5::PredType::NATIVE_UINT64);
  std::vector<KernelRow> rows(n);
  if (n > 0) kernels.read(rows.data(), type);
  for (KernelRow& row : rows) {
    run.kernels.push_back(
        {row.name ? row.name : "", row.id, static_cast<double>(row.cycles), file});
    std::free(row.name);
  }
  return run;
}

}  // namespace

SimRun read_sim_results(const std::string& file, const SweepSelection& selection) {
  if (file.ends_with(".csv")) return read_sweep_csv(file, selection);
  if (!selection.run_id.empty() || !selection.point.empty()) {
    throw Error(
        fmt::format("{}: --run and --point select rows of a sweep table (.csv); a "
                    "results file holds one run",
                    file));
  }
  try {
    H5::Exception::dontPrint();
    return read_hdf5(file);
  } catch (const H5::Exception& e) {
    throw Error(fmt::format("{}: cannot read results: {}", file, e.getDetailMsg()));
  }
}

}  // namespace sassim::correlate
