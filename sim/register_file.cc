#include "sim/register_file.h"

#include <algorithm>

namespace sassim::sim {

RegisterReadTable::RegisterReadTable(const config::RegisterFileConfig& config)
    : banks_(std::max<std::uint32_t>(config.banks(), 1)),
      ports_(std::max<std::uint32_t>(config.read_ports_per_bank(), 1)),
      reuse_(config.reuse_cache()) {}

void RegisterReadTable::extend(const traces::StaticInstTable& statics) {
  for (auto i = static_cast<std::uint32_t>(extra_.size()); i < statics.size(); ++i) {
    const isa::StaticInst& si = statics[i];
    extra_.push_back(static_cast<std::uint8_t>(extra_cycles(si.src.data(), si.num_src)));
  }
}

std::uint32_t RegisterReadTable::extra_cycles(const std::uint16_t* regs, std::size_t count) const {
  // At most isa::kMaxSrcRegs sources: count each distinct register once per bank.
  std::uint32_t busiest = 0;
  for (std::size_t i = 0; i < count; ++i) {
    if (std::find(regs, regs + i, regs[i]) != regs + i) continue;  // read already
    std::uint32_t reads = 0;
    for (std::size_t j = 0; j <= i; ++j) {
      if (regs[j] % banks_ == regs[i] % banks_ && std::find(regs, regs + j, regs[j]) == regs + j)
        ++reads;
    }
    busiest = std::max(busiest, reads);
  }
  const std::uint32_t cycles = (busiest + ports_ - 1) / ports_;
  return cycles > 1 ? cycles - 1 : 0;
}

std::uint32_t RegisterReadTable::extra_cycles(const isa::StaticInst& si, const OperandSlots& slots,
                                              ReuseCache& cache) const {
  std::array<std::uint16_t, isa::kMaxSrcRegs> from_banks{};
  std::size_t n = 0;
  for (std::uint8_t s = 0; s < si.num_src; ++s) {
    const std::uint16_t r = si.src[s];
    bool cached = false;
    for (std::size_t k = 0; k < kReuseSlots && reuse_; ++k) {
      cached |= slots.reg[k] == r && cache[k] == r;
    }
    if (!cached) from_banks[n++] = r;
  }
  for (std::size_t k = 0; k < kReuseSlots; ++k) {
    cache[k] = reuse_ && (slots.reuse_mask >> k & 1U) != 0 ? slots.reg[k] : kNoReuseReg;
  }
  return extra_cycles(from_banks.data(), n);
}

}  // namespace sassim::sim
