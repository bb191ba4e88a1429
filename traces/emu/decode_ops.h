// The opcode half of decoding: which operation an opcode and its modifiers name, and
// how many of its leading operands are destinations. Internal to the executor.
#pragma once

#include <string>

#include "traces/emu/program.h"

namespace sassim::emu::detail {

struct OpShape {
  uint8_t max_reg_dsts = 1;   // leading register destinations (0 or 1)
  uint8_t max_pred_dsts = 0;  // leading predicate destinations
};

// Sets op, unit, flags, sub, sub2 and width of `inst` from the opcode and modifiers of
// `source`; returns the operand shape. Returns an error text (empty on success) naming
// the unsupported opcode or modifier.
std::string decode_opcode(const traces::sass::Instruction& source, Inst& inst, OpShape& shape);

// The modifiers of the Hopper operations (HGMMA, SYNCS, UTMALDG, ELECT; decode_hopper.cc):
// sets sub and mma_n, or returns an error text naming what is unsupported.
std::string decode_hopper_modifiers(const traces::sass::Instruction& source, Inst& inst);

}  // namespace sassim::emu::detail
