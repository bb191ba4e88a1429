#include "system/transfer_plan.h"

#include <fmt/format.h>

#include "ground/error.h"

namespace sassim::system {

uint32_t TransferPlan::add_program(uint32_t rank) {
  program_rank_.push_back(rank);
  program_last_.push_back(-1);
  return static_cast<uint32_t>(program_rank_.size() - 1);
}

uint32_t TransferPlan::add(const Transfer& transfer, std::span<const uint32_t> deps) {
  const auto id = static_cast<uint32_t>(transfers_.size());
  if (transfer.program >= program_rank_.size()) {
    throw Error(fmt::format("transfer {} names no program ({})", id, transfer.program));
  }
  for (uint32_t dep : deps) {
    if (dep >= id) throw Error(fmt::format("transfer {} depends on a later one ({})", id, dep));
  }
  transfers_.push_back(transfer);
  deps_.insert(deps_.end(), deps.begin(), deps.end());
  dep_begin_.push_back(static_cast<uint32_t>(deps_.size()));
  previous_.push_back(program_last_[transfer.program]);
  program_last_[transfer.program] = id;
  return id;
}

}  // namespace sassim::system
