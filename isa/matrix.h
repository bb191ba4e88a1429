#pragma once
// Internal to isa/: the shape and types of a matrix instruction, read from its
// modifiers ("HMMA.16816.F32.BF16" -> m16n8k16, BF16 operands, F32 accumulator).
#include "isa/opcode.h"
#include "isa/opcode_modifiers.h"

namespace sassim::isa {

// Shape and types of HMMA, IMMA, DMMA, BMMA, QMMA (warp-level) and HGMMA, IGMMA,
// QGMMA, BGMMA (warpgroup); the default (all zero) for every other opcode. Sparse
// forms (.SP) carry their logical shape (HMMA.SP.16832: k = 32).
MatrixShape matrix_shape_of(const OpcodeText& text);

// True for the warpgroup forms (a 128-thread warpgroup issues them together).
bool is_warpgroup_matrix(std::string_view base);

}  // namespace sassim::isa
