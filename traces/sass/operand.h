#pragma once
// One operand of a SASS instruction as nvdisasm writes it ("-R2.reuse", "c[0x0][0x160]",
// "desc[UR4][R2.64+0x10]", "`(.L_x_1)"), parsed into a traces::sass::Operand.
#include <optional>
#include <string_view>

#include "traces/sass/listing.h"

namespace sassim::traces::sass {

// The operand written as `text` (already trimmed), or nullopt when it is not one of the
// forms listed in OperandKind. Labels come back with their name and target_pc 0; the
// listing parser resolves them. Lower-case words with an optional bracket
// ("gdesc[UR4]", "gsb0", "tnspA") are kOther; anything else unrecognized is nullopt.
std::optional<Operand> parse_operand(std::string_view text);

// "kReg", "kMemory", ... for messages and tests.
std::string_view kind_name(OperandKind kind);

}  // namespace sassim::traces::sass
