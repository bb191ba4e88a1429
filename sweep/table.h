#pragma once
// A table of typed columns, as the merged sweep results are kept and written.
#include <cstddef>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace sassim::sweep {

using ColumnValues = std::variant<std::vector<std::int64_t>, std::vector<std::uint64_t>,
                                  std::vector<double>, std::vector<std::string>>;

struct Column {
  std::string name;
  ColumnValues values;
};

inline std::size_t column_size(const Column& column) {
  return std::visit([](const auto& v) { return v.size(); }, column.values);
}

// Appends `count` empty values (0 or "") to a column.
inline void pad_column(Column& column, std::size_t count) {
  std::visit([count](auto& v) { v.resize(v.size() + count); }, column.values);
}

struct Table {
  std::vector<Column> columns;  // all of the same length
  std::size_t rows() const { return columns.empty() ? 0 : column_size(columns.front()); }
};

}  // namespace sassim::sweep
