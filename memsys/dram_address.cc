#include "memsys/dram_address.h"

#include <algorithm>

#include <fmt/format.h>

#include "isa/error.h"

namespace sassim::memsys {

DramAddressMap::DramAddressMap(std::string_view scheme, std::uint32_t channels,
                               std::uint32_t bank_groups, std::uint32_t banks_per_group,
                               std::uint64_t lines_per_row)
    : column_low_(scheme == "row_bank_column"),
      channels_(std::max<std::uint32_t>(1, channels)),
      groups_(std::max<std::uint32_t>(1, bank_groups)),
      banks_per_group_(std::max<std::uint32_t>(1, banks_per_group)),
      lines_per_row_(std::max<std::uint64_t>(1, lines_per_row)) {
  if (scheme != "row_bank_column" && scheme != "row_column_bank") {
    throw Error(
        fmt::format("dram.address_scheme: unknown scheme \"{}\" (known: \"row_column_bank\", "
                    "\"row_bank_column\")",
                    scheme));
  }
}

DramLocation DramAddressMap::locate(std::uint64_t line) const {
  std::uint64_t rest = line / channels_;
  DramLocation at;
  if (column_low_) {
    at.column = rest % lines_per_row_;
    rest /= lines_per_row_;
  }
  at.group = static_cast<std::uint32_t>(rest % groups_);
  rest /= groups_;
  const auto bank = static_cast<std::uint32_t>(rest % banks_per_group_);
  rest /= banks_per_group_;
  if (!column_low_) {
    at.column = rest % lines_per_row_;
    rest /= lines_per_row_;
  }
  at.row = rest;
  at.bank = at.group * banks_per_group_ + bank;
  return at;
}

}  // namespace sassim::memsys
