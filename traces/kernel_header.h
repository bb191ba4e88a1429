#pragma once
// The header of an Accel-Sim kernel trace ("-kernel name = ...", ..., "#traces format
// = ..."), validated field by field.
#include <cstdint>

#include "traces/kernel_trace.h"
#include "traces/line_source.h"

namespace sassim::traces {

// Layout of the instruction lines, decided by the tracer version.
struct TraceFormat {
  int tracer_major = 0;   // 1 for "1.2"; 2, 3, 4, 5
  bool lineinfo = false;  // "-enable lineinfo = 1": a leading decimal source line number

  // Versions before 3 start each line with "tb_x tb_y tb_z warp" (the v3 format comment
  // still lists them, but v3 lines do not have them).
  bool has_block_and_warp_ids() const { return tracer_major < 3; }
  // Version 5 ends each line with a decimal immediate.
  bool has_immediate() const { return tracer_major >= 5; }
};

// Most CTAs a kernel's grid may have: the reader keeps one bit per CTA of the grid to
// check that the trace holds each once (16 MiB at this limit). A trace of that many CTAs
// is hundreds of gigabytes; a larger grid is refused at its header line.
inline constexpr std::uint64_t kMaxGridCtas = std::uint64_t{1} << 27;

struct KernelHeader {
  KernelInfo info;
  TraceFormat format;
};

// Reads the header up to (not including) the first "#BEGIN_TB", or to the end of the
// input. Throws sassim::Error naming the file and line of a missing, repeated,
// malformed or out-of-range field.
KernelHeader read_kernel_header(LineSource& lines);

}  // namespace sassim::traces
