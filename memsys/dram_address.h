#pragma once
// Where a line lives inside its DRAM channel: bank group, bank, row and column.
//
// The channel-local line index is L = line / dram.channels: the L2 map spreads
// consecutive lines over the channels, so the lines a stream sends to one channel are
// (about) consecutive in L. With G = bank_groups, B = banks_per_group and
// C = row_bytes / line_bytes (lines per row), the named schemes cut L, lowest field
// first, into:
//   "row_column_bank": group = L % G, bank = L / G % B, column = L / (G B) % C,
//                      row = L / (G B C). Consecutive lines alternate bank groups
//                      (column commands tCCD_S apart) and every bank keeps its row
//                      open for C of them.
//   "row_bank_column": column = L % C, group = L / C % G, bank = L / (C G) % B,
//                      row = L / (C G B). A row's lines are consecutive (one bank
//                      group, column commands tCCD_L apart).
#include <cstdint>
#include <string_view>

namespace sassim::memsys {

struct DramLocation {
  std::uint32_t bank = 0;  // group * banks_per_group + bank within the group
  std::uint32_t group = 0;
  std::uint64_t row = 0;
  std::uint64_t column = 0;  // in lines
};

class DramAddressMap {
 public:
  // Throws sassim::Error (naming dram.address_scheme) for an unknown scheme.
  DramAddressMap(std::string_view scheme, std::uint32_t channels, std::uint32_t bank_groups,
                 std::uint32_t banks_per_group, std::uint64_t lines_per_row);

  DramLocation locate(std::uint64_t line) const;
  std::uint32_t banks() const { return groups_ * banks_per_group_; }

 private:
  bool column_low_;
  std::uint32_t channels_;
  std::uint32_t groups_;
  std::uint32_t banks_per_group_;
  std::uint64_t lines_per_row_;
};

}  // namespace sassim::memsys
