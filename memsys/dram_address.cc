#include "memsys/dram_address.h"

#include <algorithm>

#include "configs/choices.h"
#include "ground/error.h"

namespace sassim::memsys {
namespace {

// The schemes of config::kDramAddressSchemes, in its order.
enum class Scheme { kRowColumnBank, kRowBankColumn, kCount };
static_assert(static_cast<std::size_t>(Scheme::kCount) == config::kDramAddressSchemes.size());

// Whether the column is the lowest field of the channel-local line index.
bool column_low(std::string_view scheme) {
  const auto index = config::choice_index(config::kDramAddressSchemes, scheme);
  if (!index) {
    throw Error(
        *config::choice_problem("dram.address_scheme", scheme, config::kDramAddressSchemes));
  }
  return static_cast<Scheme>(*index) == Scheme::kRowBankColumn;
}

}  // namespace

DramAddressMap::DramAddressMap(std::string_view scheme, std::uint32_t channels,
                               std::uint32_t bank_groups, std::uint32_t banks_per_group,
                               std::uint64_t lines_per_row)
    : column_low_(column_low(scheme)),
      channels_(std::max<std::uint32_t>(1, channels)),
      groups_(std::max<std::uint32_t>(1, bank_groups)),
      banks_per_group_(std::max<std::uint32_t>(1, banks_per_group)),
      lines_per_row_(std::max<std::uint64_t>(1, lines_per_row)) {}

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
