#include "sweep/results_reader.h"

#include <H5Cpp.h>

#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

#include "ground/error.h"
#include "ground/file_seal.h"

namespace sassim::sweep {

namespace {

hsize_t extent(const H5::DataSet& ds, int rank) {
  H5::DataSpace space = ds.getSpace();
  if (space.getSimpleExtentNdims() != rank) {
    throw H5::DataSetIException("read", fmt::format("expected {} dimensions", rank));
  }
  std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
  space.getSimpleExtentDims(dims.data());
  return dims[0];
}

std::vector<std::string> read_strings(const H5::DataSet& ds, const H5::DataType& memory,
                                      std::size_t count) {
  std::vector<char*> raw(count, nullptr);
  if (count > 0) ds.read(raw.data(), memory);
  std::vector<std::string> out;
  for (char* s : raw) {
    out.emplace_back(s != nullptr ? s : "");
    std::free(s);
  }
  return out;
}

// Reads one member of the compound /kernels table as a column.
Column read_member(const H5::DataSet& ds, const H5::CompType& file_type, unsigned member,
                   std::size_t rows) {
  Column column{file_type.getMemberName(member), {}};
  const H5T_class_t type_class = file_type.getMemberClass(member);
  if (type_class == H5T_INTEGER) {
    const bool is_signed = file_type.getMemberIntType(member).getSign() != H5T_SGN_NONE;
    H5::CompType memory(std::size_t{8});
    if (is_signed) {
      memory.insertMember(column.name, 0, H5::PredType::NATIVE_INT64);
      std::vector<std::int64_t> values(rows);
      if (rows > 0) ds.read(values.data(), memory);
      column.values = std::move(values);
    } else {
      memory.insertMember(column.name, 0, H5::PredType::NATIVE_UINT64);
      std::vector<std::uint64_t> values(rows);
      if (rows > 0) ds.read(values.data(), memory);
      column.values = std::move(values);
    }
  } else if (type_class == H5T_FLOAT) {
    H5::CompType memory(sizeof(double));
    memory.insertMember(column.name, 0, H5::PredType::NATIVE_DOUBLE);
    std::vector<double> values(rows);
    if (rows > 0) ds.read(values.data(), memory);
    column.values = std::move(values);
  } else if (type_class == H5T_STRING && file_type.getMemberStrType(member).isVariableStr()) {
    H5::CompType memory(sizeof(char*));
    H5::StrType str(H5::PredType::C_S1, H5T_VARIABLE);
    str.setCset(file_type.getMemberStrType(member).getCset());  // ASCII or UTF-8, as written
    memory.insertMember(column.name, 0, str);
    column.values = read_strings(ds, memory, rows);
  } else if (type_class == H5T_STRING) {
    const std::size_t size = file_type.getMemberStrType(member).getSize();
    H5::CompType memory(size);
    H5::StrType str(H5::PredType::C_S1, size);
    str.setCset(file_type.getMemberStrType(member).getCset());
    memory.insertMember(column.name, 0, str);
    std::vector<char> raw(rows * size);
    if (rows > 0) ds.read(raw.data(), memory);
    std::vector<std::string> values;
    for (std::size_t r = 0; r < rows; ++r) {
      const char* s = raw.data() + r * size;
      values.emplace_back(s, strnlen(s, size));
    }
    column.values = std::move(values);
  } else {
    throw H5::DataSetIException("read",
                                fmt::format("column '{}' has an unsupported type", column.name));
  }
  return column;
}

}  // namespace

RunResults read_run_results(const std::filesystem::path& file) {
  RunResults results;
  check_seal(file);  // a damaged file is an error here, not a crash inside HDF5
  try {
    H5::Exception::dontPrint();
    H5::H5File h5(file.string(), H5F_ACC_RDONLY);
    H5::DataSet kernels = h5.openDataSet("kernels");
    results.kernel_count = extent(kernels, 1);
    const H5::CompType type = kernels.getCompType();
    for (int m = 0; m < type.getNmembers(); ++m) {
      results.kernels.push_back(
          read_member(kernels, type, static_cast<unsigned>(m), results.kernel_count));
    }
    H5::DataSet names = h5.openDataSet("stats/names");
    const std::size_t count = extent(names, 1);
    results.stat_names = read_strings(names, names.getStrType(), count);
    H5::DataSet values = h5.openDataSet("stats/values");
    hsize_t dims[2] = {0, 0};
    H5::DataSpace space = values.getSpace();
    if (space.getSimpleExtentNdims() != 2) throw H5::DataSetIException("read", "stats/values");
    space.getSimpleExtentDims(dims);
    if (dims[0] != results.kernel_count || dims[1] != count) {
      throw Error(fmt::format("{}: stats/values is {}x{}, expected {}x{}", file.string(), dims[0],
                              dims[1], results.kernel_count, count));
    }
    results.stat_values.resize(dims[0] * dims[1]);
    if (!results.stat_values.empty()) {
      values.read(results.stat_values.data(), H5::PredType::NATIVE_DOUBLE);
    }
  } catch (const H5::Exception& e) {
    throw Error(fmt::format("{}: cannot read results: {} {}", file.string(), e.getFuncName(),
                            e.getDetailMsg()));
  }
  return results;
}

std::string read_results_config(const std::filesystem::path& file) {
  check_seal(file);
  try {
    H5::Exception::dontPrint();
    H5::H5File h5(file.string(), H5F_ACC_RDONLY);
    H5::DataSet config = h5.openDataSet("config");
    std::string text;
    config.read(text, config.getStrType());
    return text;
  } catch (const H5::Exception& e) {
    throw Error(fmt::format("{}: cannot read /config: {} {}", file.string(), e.getFuncName(),
                            e.getDetailMsg()));
  }
}

bool results_file_complete(const std::filesystem::path& file) {
  try {
    read_run_results(file);
    return true;
  } catch (const Error&) {
    return false;
  }
}

}  // namespace sassim::sweep
