#pragma once
// A kernel trace for the sampling tests: CTAs of one warp streaming whole lines.
#include <cstdint>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "traces/text_trace.h"

namespace sassim::sim {

// `ctas` CTAs of one warp, each loading (or storing) 16 whole 128-byte lines of its own:
// CTA c the 2 KiB from 0x10000000 + 2048 x (first + c).
inline std::unique_ptr<traces::KernelTrace> streaming(int ctas, bool store = false, int first = 0,
                                                      int id = 1, std::string name = "stream") {
  std::string t = fmt::format(
      "-kernel name = {}\n-kernel id = {}\n-grid dim = ({},1,1)\n-block dim = (32,1,1)\n"
      "-shmem = 0\n-nregs = 16\n-binary version = 70\n-cuda stream id = 0\n"
      "-shmem base_addr = 0x00007f0000000000\n-local mem base_addr = 0x00007e0000000000\n"
      "-nvbit version = 1.5.5\n-accelsim tracer version = 4\n-enable lineinfo = 0\n\n",
      name, id, ctas);
  for (int c = 0; c < ctas; ++c) {
    t += fmt::format("#BEGIN_TB\n\nthread block = {},0,0\n\nwarp = 0\ninsts = 17\n", c);
    for (int i = 0; i < 16; ++i) {
      const auto a = static_cast<std::uint64_t>(0x10000000 + 2048 * (first + c) + 128 * i);
      t += store ? fmt::format("{:04x} ffffffff 0 STG.E.SYS 2 R40 R{} 4 1 0x{:x} 4\n", 16 * i,
                               2 + i, a)
                 : fmt::format("{:04x} ffffffff 1 R{} LDG.E.SYS 1 R40 4 1 0x{:x} 4\n", 16 * i,
                               2 + i, a);
    }
    t += "0100 ffffffff 0 EXIT 0 0\n#END_TB\n";
  }
  return traces::kernel_from_text(t, "stream.traceg");
}

}  // namespace sassim::sim
