// `sassim capture`: one launch of a kernel's SASS executed on the CPU, its global
// memory given by the launch description, and (optionally) its Accel-Sim trace.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <vector>

#include "kernels/launch.h"
#include "traces/emu/state.h"
#include "traces/emu/trace_writer.h"
#include "traces/sass/listing.h"

namespace sassim::emu {

inline constexpr uint32_t kLocalBytesPerThread = 4096;
// Shared memory a CTA may address: the 1 KiB window Hopper reserves below a CTA's
// shared memory plus the largest configurable carve-out (228 KiB).
inline constexpr uint32_t kSharedWindowBytes = 1024 + 228 * 1024;

// The launch's buffers in device memory, allocated in argument order; or (a workload's
// memory, traces/emu/workload/) allocations made beforehand, which bind() points a
// launch's arguments into.
struct DeviceBuffers {
  GlobalMemory memory;
  // Per argument: its allocation (a buffer, or the matrix a tensor map describes), -1
  // for scalars.
  std::vector<int> allocation_of_arg;
  // Per argument: bytes from the allocation's start to the argument's; empty: all 0.
  std::vector<uint64_t> offset_of_arg;

  DeviceBuffers() = default;
  explicit DeviceBuffers(const kernels::Launch& launch);
  // Binds the next launch's arguments: argument i at offset_of_arg[i] in allocation
  // allocation_of_arg[i] (-1 for scalars). Throws sassim::Error when a buffer does not
  // fit inside its allocation.
  void bind(const kernels::Launch& launch, std::vector<int> allocations,
            std::vector<uint64_t> offsets);
  // The device address argument `index` points at.
  uint64_t arg_address(size_t index) const;
  std::vector<uint8_t>& arg(size_t index);
};

// Constant bank 0 of a launch: block and grid dimensions, the stack top, and the
// parameters from 0x160 (sm_70..sm_89) or 0x210 (sm_90; then also the parameters'
// generic address at 0x198, and tensor maps as traces/emu/tensor_map.h lays them out).
ConstBank make_const_bank(const kernels::Launch& launch, const DeviceBuffers& buffers,
                          int sm_version);

// The sm_XY version of a listing: its header's architecture, else the name of the folder
// holding `path` ("sm_80"). Throws sassim::Error when neither says.
int listing_sm_version(const traces::sass::Listing& listing, const std::filesystem::path& path);

// Constant bank 2 of a listing from the file beside it (LISTING with .const2 for
// .sass): lines "OFFSET VALUE" in hex, VALUE written with 16 digits taking 8 bytes,
// else 4; '#' starts a comment. Empty when there is no such file; sassim::Error
// "FILE:LINE: ..." for a malformed line.
std::vector<uint8_t> read_const_bank2(const std::filesystem::path& listing);

struct CaptureOptions {
  std::filesystem::path trace_folder;  // empty: run without writing a trace
  // kZstd: kernel-1.traceg.zst, which kernelslist.g names; kNone: text kernel-1.traceg.
  traces::Compression compression = traces::Compression::kZstd;
  int sm_version = 80;
  std::vector<uint8_t> const_bank2;   // see read_const_bank2
  std::vector<HostCopy> host_copies;  // listed in kernelslist.g before the kernel
  TraceSlot slot;                     // the kernel file's place in the folder's list
  uint64_t max_warp_insts_per_cta = uint64_t{1} << 32;
  // Called after every CTA with (CTAs done, CTAs in all, warp instructions so far).
  std::function<void(uint64_t, uint64_t, uint64_t)> progress;
};

struct CaptureResult {
  uint64_t ctas = 0;
  uint64_t warp_insts = 0;
  uint64_t trace_lines = 0;
};

// Runs every CTA of `launch` of the function named launch.kernel in `listing`.
// Throws sassim::Error for an unknown kernel, unsupported instruction or bad access.
CaptureResult capture(const traces::sass::Listing& listing, const kernels::Launch& launch,
                      DeviceBuffers& buffers, const CaptureOptions& options);

}  // namespace sassim::emu
