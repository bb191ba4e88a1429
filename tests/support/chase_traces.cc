#include "tests/support/chase_traces.h"

#include <fmt/format.h>

namespace sassim::measure {

std::string trace_header(std::string_view name, std::uint32_t id, std::uint32_t grid,
                         std::uint32_t threads, std::uint32_t shmem, int binary_version) {
  return fmt::format(
      "-kernel name = {}\n-kernel id = {}\n-grid dim = ({},1,1)\n-block dim = ({},1,1)\n"
      "-shmem = {}\n-nregs = 40\n-binary version = {}\n-cuda stream id = 0\n"
      "-shmem base_addr = 0x00007f0000000000\n-local mem base_addr = 0x00007e0000000000\n"
      "-nvbit version = 1.5.5\n-accelsim tracer version = 4\n-enable lineinfo = 0\n\n",
      name, id, grid, threads, shmem, binary_version);
}

std::string chase_trace(const std::string& opcode,
                        const std::vector<std::vector<std::uint64_t>>& addresses,
                        int binary_version) {
  std::string t = trace_header("chase", 1, 1, 32, opcode == "LDS" ? 49152 : 0, binary_version);
  t += fmt::format("#BEGIN_TB\n\nthread block = 0,0,0\n\nwarp = 0\ninsts = {}\n",
                   addresses.size() + 1);
  std::uint64_t pc = 0;
  for (const auto& lanes : addresses) {
    const std::uint32_t mask = lanes.size() >= 32 ? 0xffffffffU : (1U << lanes.size()) - 1;
    t += fmt::format("{:04x} {:08x} 1 R2 {} 1 R2 4 0", pc, mask, opcode);
    for (std::uint64_t a : lanes) t += fmt::format(" 0x{:x}", a);
    t += '\n';
    pc += 0x10;
  }
  t += fmt::format("{:04x} ffffffff 0 EXIT 0 0\n#END_TB\n", pc);
  return t;
}

std::string stream_trace(std::uint32_t ctas, std::uint32_t warps, std::uint32_t loads,
                         std::uint64_t base, int binary_version, std::uint32_t kernel_id,
                         std::uint32_t region_loads, bool l1_bypass) {
  const std::uint32_t per_region = region_loads == 0 ? loads : region_loads;
  const char* opcode = l1_bypass ? "LDG.E.128.STRONG.GPU" : "LDG.E.128";
  std::string t = trace_header("stream", kernel_id, ctas, 32 * warps, 0, binary_version);
  for (std::uint32_t c = 0; c < ctas; ++c) {
    t += fmt::format("#BEGIN_TB\n\nthread block = {},0,0\n\n", c);
    for (std::uint32_t w = 0; w < warps; ++w) {
      t += fmt::format("warp = {}\ninsts = {}\n", w, loads + 1);
      const std::uint64_t region = base + (std::uint64_t{c} * warps + w) * per_region * 512;
      for (std::uint32_t i = 0; i < loads; ++i) {
        t += fmt::format("{:04x} ffffffff 1 R{} {} 1 R2 16 1 0x{:x} 16\n", 0x10 * i,
                         4 + 4 * (i % 8), opcode, region + std::uint64_t{i % per_region} * 512);
      }
      t += fmt::format("{:04x} ffffffff 0 EXIT 0 0\n", 0x10 * loads);
    }
    t += "#END_TB\n";
  }
  return t;
}

}  // namespace sassim::measure
