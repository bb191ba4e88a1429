#pragma once
// Control-bit mode (`sassim run --sass LISTING`): for a kernel whose SASS listing is
// given, issue follows the scheduling word the compiler wrote into each instruction
// instead of the register scoreboard. After an issue the warp waits `stall` cycles;
// `yield` lets its sub-core prefer another warp in the next cycle; each warp has six
// dependency scoreboards (SB0-SB5): an instruction's write barrier counts up at issue
// and down when its results are written, its read barrier when its sources have been
// read, and an instruction waits until every scoreboard of its wait mask is zero
// (DEPBAR.LE SBx, N: until SBx <= N).
#include <cstdint>
#include <memory>
#include <vector>

#include "sim/warp_scoreboards.h"
#include "traces/kernel_trace.h"
#include "traces/sass/listing.h"

namespace sassim::sim {

// The control bits of every static instruction of one kernel launch, by static index.
class ControlBitsTable {
 public:
  ControlBitsTable(const traces::sass::Listing& listing, const traces::sass::Function& function,
                   isa::Arch arch);
  // Joins the static instructions the trace decoded since the last call with the
  // listing by PC. Throws sassim::Error naming the trace file and line and the listing
  // file and line when a PC is not in the listing or the opcodes differ.
  void extend(const traces::KernelTrace& trace);
  const ControlEntry& operator[](std::uint32_t static_index) const {
    return entries_[static_index];
  }

 private:
  const traces::sass::Listing& listing_;
  const traces::sass::Function& function_;
  isa::Arch arch_;
  std::vector<ControlEntry> entries_;
};

// The table for `kernel` when one of `listings` has a function of its name, else null.
std::unique_ptr<ControlBitsTable> make_control_bits(
    const std::vector<traces::sass::Listing>& listings, const traces::KernelInfo& kernel);

}  // namespace sassim::sim
