#pragma once
// The accepted names of the schema's name-valued fields, one list per field. The
// registries that turn a name into a part (sim/scheduler_policy.cc,
// memsys/address_map.cc, memsys/dram_address.cc, configs/derived.cc) index their tables
// by a name's place in its list, and validate() checks every such field against its list
// when a config is loaded.
#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace sassim::config {

// sm.scheduler.policy
inline constexpr std::array<std::string_view, 4> kSchedulerPolicies = {"gto", "gty", "lrr",
                                                                       "two_level"};
// l2.address_hash
inline constexpr std::array<std::string_view, 3> kAddressHashes = {"linear", "xor", "ipoly"};
// l2.set_index
inline constexpr std::array<std::string_view, 2> kL2SetIndexes = {"linear", "xor"};
// dram.address_scheme
inline constexpr std::array<std::string_view, 2> kDramAddressSchemes = {"row_column_bank",
                                                                        "row_bank_column"};

// dram.type, with the data transfers per pin per DRAM clock that set its clock domain.
struct DramType {
  std::string_view name;
  double transfers_per_clock;
};
inline constexpr std::array<DramType, 8> kDramTypes = {{
    {"HBM2", 2},
    {"HBM2e", 2},
    {"HBM3", 2},
    {"HBM3e", 2},
    {"GDDR5", 2},
    {"GDDR5X", 4},
    {"GDDR6", 2},
    {"GDDR6X", 4},
}};

// Place of `name` in `names`; nullopt when it is not there.
std::optional<std::size_t> choice_index(std::span<const std::string_view> names,
                                        std::string_view name);
// The DRAM type named `name`; nullptr when it is not one of kDramTypes.
const DramType* find_dram_type(std::string_view name);

// The name of `names` closest to `value` (case ignored) within a third of its length in
// edits (at least one); nullopt when none is that close.
std::optional<std::string_view> closest_name(std::string_view value,
                                             std::span<const std::string_view> names);

// nullopt when `value` is one of `names`; else the problem naming the field, the value,
// the accepted names and, when one is close, a suggestion:
//   sm.scheduler.policy = "lrx" is not one of: gto, gty, lrr, two_level (did you mean "lrr"?)
std::optional<std::string> choice_problem(std::string_view path, std::string_view value,
                                          std::span<const std::string_view> names);

}  // namespace sassim::config
