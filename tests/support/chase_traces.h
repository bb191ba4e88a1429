#pragma once
// Generated trace texts (tracer version 4) for the memory measurements: dependent
// load chains of one warp, and many SMs streaming wide loads.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sassim::measure {

// The kernel header of the generated traces (tracer version 4): `grid` x 1 x 1 CTAs of
// `threads` x 1 x 1 threads.
std::string trace_header(std::string_view name, std::uint32_t id, std::uint32_t grid,
                         std::uint32_t threads, std::uint32_t shmem, int binary_version);

// One CTA of one warp running dependent loads R2 <- [R2], one per entry of
// `addresses`; each entry holds the addresses of the active lanes (lanes 0..n-1).
std::string chase_trace(const std::string& opcode,
                        const std::vector<std::vector<std::uint64_t>>& addresses,
                        int binary_version);

// `ctas` CTAs of `warps` warps; warp w of CTA c issues `loads` independent 16-byte
// per-thread loads (LDG.E.128, 512 contiguous bytes per warp instruction, eight
// destination registers in rotation) over its own region from `base`, then exits.
// The region holds `region_loads` loads' bytes (0: `loads`), read again from its start
// as often as `loads` asks; `l1_bypass` loads (LDG.E.128.STRONG.GPU) are served by the L2.
std::string stream_trace(std::uint32_t ctas, std::uint32_t warps, std::uint32_t loads,
                         std::uint64_t base, int binary_version, std::uint32_t kernel_id,
                         std::uint32_t region_loads = 0, bool l1_bypass = false);

}  // namespace sassim::measure
