#pragma once
// One instruction line of an Accel-Sim trace:
//   [tb_x tb_y tb_z warp]  (tracer versions < 3)
//   [line_number]          (versions 4 and 5 with "-enable lineinfo = 1")
//   PC mask dest_num [R<n> ...] opcode src_num [R<n> ...] mem_width
//   [address_mode addresses...]  (when mem_width > 0)
//   [immediate]            (version 5)
// Address modes: 0 = one hex address per active thread in lane order; 1 = hex base and
// decimal stride (i-th active thread: base + i * stride); 2 = hex base, then one decimal
// delta per further active thread, each relative to the previous address.
// Hopper TMA / bulk-copy lines (UTMALDG, UTMASTG, UTMAPF, UTMAREDG, UBLKCP, UBLKPF,
// UBLKRED), as Accel-Sim's tracer writes them, follow mem_width with
//   mbarrier_addr multicast [cta_mask] byte_count oob_byte_count mode transfers...
// mode 3 = a count and that many hex transfer addresses; mode 4 = a hex base, a count
// and count - 1 decimal deltas. The transfer addresses are appended to the addresses;
// a TMA line without these fields (a hex mbarrier address first) is read like any
// memory line. traces/kernel_trace.h says how the reader keeps both.
#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "traces/kernel_header.h"
#include "traces/line_source.h"

namespace sassim::traces {

inline constexpr std::size_t kMaxLineDsts = 4;   // recorded destinations, RZ included
inline constexpr std::size_t kMaxLineSrcs = 32;  // recorded sources, RZ included

struct InstructionLine {
  std::array<std::uint32_t, 3> block{};  // tracer versions < 3 only
  std::uint32_t warp = 0;                // tracer versions < 3 only
  std::uint64_t pc = 0;
  std::uint32_t mask = 0;
  std::uint32_t mem_width = 0;      // bytes per thread; 0 = no addresses
  std::int64_t immediate = 0;       // version 5; 0 in earlier versions
  bool tma = false;                 // a TMA / bulk-copy line
  std::uint64_t tma_mbarrier = 0;   // shared-memory address of its mbarrier
  std::uint32_t tma_bytes = 0;      // bytes it moves
  std::uint32_t tma_multicast = 0;  // multicast CTA mask (bit r: cluster rank r); 0: none
  std::uint8_t num_dst = 0;
  std::uint8_t num_src = 0;
  std::array<std::uint16_t, kMaxLineDsts> dst{};  // register numbers, 255 = RZ
  std::array<std::uint16_t, kMaxLineSrcs> src{};
  std::string_view opcode;  // view into the line
};

// Parses `line` (the last line read from `lines`, which names it in errors) into `out`
// and appends the addresses of its active threads to `addresses`.
void parse_instruction_line(std::string_view line, const TraceFormat& format,
                            const LineSource& lines, InstructionLine& out,
                            std::vector<std::uint64_t>& addresses);

}  // namespace sassim::traces
