#pragma once
// Writing the merged table as HDF5 and as CSV, each replaced atomically.
//
// HDF5: /columns is the list of column names in order; /table/<name> holds each column
// as a 1-D dataset (int64, uint64, float64 or variable-length string); the root's
// `spec` attribute names the sweep spec. A table too wide for one compound type
// (thousands of counters) fits this way, and h5py reads it back column by column.
//
// CSV (RFC 4180): a header of column names, then one line per row; numbers in the
// shortest form that reads back to the same value; text quoted when it holds a
// comma, a quote, a line break or leading or trailing blanks.
#include <filesystem>
#include <string>

#include "sweep/table.h"

namespace sassim::sweep {

// Throws sassim::Error naming the file.
void write_table_hdf5(const std::filesystem::path& file, const Table& table,
                      const std::string& spec);
void write_table_csv(const std::filesystem::path& file, const Table& table);

}  // namespace sassim::sweep
