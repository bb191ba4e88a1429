#include "sweep/table_writer.h"

#include <H5Cpp.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>

#include <fmt/format.h>

#include "ground/error.h"
#include "sweep/durable_files.h"

namespace sassim::sweep {

namespace fs = std::filesystem;

namespace {

fs::path temp_beside(const fs::path& file) {
  fs::path temp = file;
  temp += fmt::format(".tmp.{}", ::getpid());
  return temp;
}

// Moves a finished temp file into place durably.
void install(const fs::path& temp, const fs::path& file) {
  fsync_path(temp);
  if (std::rename(temp.c_str(), file.c_str()) != 0) {
    std::error_code ec;
    fs::remove(temp, ec);
    throw Error(fmt::format("cannot write '{}': rename failed", file.string()));
  }
  fsync_path(file.parent_path());
}

void write_strings(H5::Group& group, const std::string& name,
                   const std::vector<std::string>& values) {
  H5::StrType str(H5::PredType::C_S1, H5T_VARIABLE);
  str.setCset(H5T_CSET_UTF8);  // h5py reads str
  std::vector<const char*> pointers;
  for (const std::string& s : values) pointers.push_back(s.c_str());
  hsize_t dims[1] = {pointers.size()};
  H5::DataSet ds = group.createDataSet(name, str, H5::DataSpace(1, dims));
  if (!pointers.empty()) ds.write(pointers.data(), str);
}

template <typename T>
void write_numbers(H5::Group& group, const std::string& name, const std::vector<T>& values,
                   const H5::PredType& type) {
  hsize_t dims[1] = {values.size()};
  H5::DataSet ds = group.createDataSet(name, type, H5::DataSpace(1, dims));
  if (!values.empty()) ds.write(values.data(), type);
}

void write_column(H5::Group& group, const Column& column) {
  if (column.name.find('/') != std::string::npos || column.name == "." || column.name.empty()) {
    throw Error(fmt::format("column name '{}' cannot be an HDF5 dataset name", column.name));
  }
  switch (column.values.index()) {
    case 0:
      return write_numbers(group, column.name, std::get<0>(column.values),
                           H5::PredType::NATIVE_INT64);
    case 1:
      return write_numbers(group, column.name, std::get<1>(column.values),
                           H5::PredType::NATIVE_UINT64);
    case 2:
      return write_numbers(group, column.name, std::get<2>(column.values),
                           H5::PredType::NATIVE_DOUBLE);
    default:
      return write_strings(group, column.name, std::get<3>(column.values));
  }
}

std::string csv_text(const std::string& text) {
  const bool quote = text.find_first_of(",\"\r\n") != std::string::npos ||
                     (!text.empty() && (text.front() == ' ' || text.back() == ' ' ||
                                        text.front() == '\t' || text.back() == '\t'));
  if (!quote) return text;
  std::string out = "\"";
  for (const char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string csv_cell(const Column& column, std::size_t row) {
  return std::visit(
      [row](const auto& v) -> std::string {
        using T = typename std::decay_t<decltype(v)>::value_type;
        if constexpr (std::is_same_v<T, std::string>) {
          return csv_text(v[row]);
        } else {
          return fmt::format("{}", v[row]);
        }
      },
      column.values);
}

}  // namespace

void write_table_hdf5(const fs::path& file, const Table& table, const std::string& spec) {
  const fs::path temp = temp_beside(file);
  try {
    H5::Exception::dontPrint();
    {
      H5::H5File h5(temp.string(), H5F_ACC_TRUNC);
      H5::StrType str(H5::PredType::C_S1, H5T_VARIABLE);
      str.setCset(H5T_CSET_UTF8);  // h5py reads str
      H5::Attribute a = h5.createAttribute("spec", str, H5::DataSpace(H5S_SCALAR));
      const char* p = spec.c_str();
      a.write(str, &p);
      std::vector<std::string> names;
      for (const Column& c : table.columns) names.push_back(c.name);
      H5::Group root = h5.openGroup("/");
      write_strings(root, "columns", names);
      H5::Group group = h5.createGroup("table");
      for (const Column& c : table.columns) write_column(group, c);
    }
  } catch (const H5::Exception& e) {
    std::error_code ec;
    fs::remove(temp, ec);
    throw Error(
        fmt::format("{}: cannot write the merged table: {}", file.string(), e.getDetailMsg()));
  }
  install(temp, file);
}

void write_table_csv(const fs::path& file, const Table& table) {
  const fs::path temp = temp_beside(file);
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    if (!out) throw Error(fmt::format("cannot create '{}'", temp.string()));
    for (std::size_t c = 0; c < table.columns.size(); ++c) {
      out << (c > 0 ? "," : "") << csv_text(table.columns[c].name);
    }
    out << '\n';
    for (std::size_t r = 0; r < table.rows(); ++r) {
      for (std::size_t c = 0; c < table.columns.size(); ++c) {
        out << (c > 0 ? "," : "") << csv_cell(table.columns[c], r);
      }
      out << '\n';
    }
    out.flush();
    if (!out) throw Error(fmt::format("cannot write '{}'", temp.string()));
  }
  install(temp, file);
}

}  // namespace sassim::sweep
