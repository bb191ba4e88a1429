#pragma once
// Reading back sweep.h5 (/columns and /table/<name>) in the tests.
#include <H5Cpp.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace sassim::sweep::test {

class MergedFile {
 public:
  explicit MergedFile(const std::filesystem::path& file) : h5_(file.string(), H5F_ACC_RDONLY) {}

  std::vector<std::string> columns() const { return strings("columns"); }
  std::vector<std::string> text(const std::string& column) const {
    return strings("table/" + column);
  }
  template <typename T>
  std::vector<T> numbers(const std::string& column, const H5::PredType& type) const {
    H5::DataSet ds = h5_.openDataSet("table/" + column);
    std::vector<T> values(size(ds));
    if (!values.empty()) ds.read(values.data(), type);
    return values;
  }
  std::vector<double> doubles(const std::string& column) const {
    return numbers<double>(column, H5::PredType::NATIVE_DOUBLE);
  }
  std::vector<std::uint64_t> unsigneds(const std::string& column) const {
    return numbers<std::uint64_t>(column, H5::PredType::NATIVE_UINT64);
  }
  H5T_class_t type_class(const std::string& column) const {
    return h5_.openDataSet("table/" + column).getTypeClass();
  }

 private:
  static std::size_t size(const H5::DataSet& ds) {
    hsize_t n = 0;
    ds.getSpace().getSimpleExtentDims(&n);
    return n;
  }
  std::vector<std::string> strings(const std::string& path) const {
    H5::DataSet ds = h5_.openDataSet(path);
    const H5::StrType str = ds.getStrType();
    std::vector<char*> raw(size(ds));
    if (!raw.empty()) ds.read(raw.data(), str);
    std::vector<std::string> out;
    for (char* s : raw) {
      out.emplace_back(s);
      std::free(s);
    }
    return out;
  }
  H5::H5File h5_;
};

}  // namespace sassim::sweep::test
