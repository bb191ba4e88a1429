// Writes what the executor ran as an Accel-Sim trace (tracer version 5): kernelslist.g
// and kernel-1.traceg (or kernel-1.traceg.zst, compressed as it is written), one CTA at a
// time; or, for a workload of several launches, kernel-N appended to a folder's list.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "traces/emu/state.h"
#include "traces/output_file.h"

namespace sassim::emu {

struct TraceHeader {
  std::string kernel_name;
  Dim3 grid;
  Dim3 block;
  Dim3 cluster;  // written when it holds more than one CTA
  uint32_t shmem_bytes = 0;
  uint32_t nregs = 1;
  int binary_version = 80;
};

// Generic-address windows the header declares (shared and local accesses are written
// as offsets in their own spaces, as the tracer does for LDS/STS/LDL/STL).
inline constexpr uint64_t kTraceSharedBase = 0x00007f0f00000000ULL;
inline constexpr uint64_t kTraceLocalBase = 0x00007f0e00000000ULL;

// A host-to-device copy before the launch (cudaMemcpy of an input): kernelslist.g lists it
// as "MemcpyHtoD,<address>,<bytes>" ahead of the kernel, as the tracer does.
struct HostCopy {
  uint64_t address = 0;
  uint64_t bytes = 0;
};

// Which launch of a folder's list the kernel file is. The default is a folder of one
// launch: kernelslist.g written anew, kernel-1, stream 0.
struct TraceSlot {
  uint32_t kernel_id = 1;       // kernel-N and the header's -kernel id
  int64_t stream_id = 0;        // the header's -cuda stream id
  bool append_to_list = false;  // add to kernelslist.g instead of rewriting it
};

class TraceWriter {
 public:
  // Creates `folder` if needed and writes kernelslist.g there (or appends to it, per
  // `slot`): `copies`, then the kernel file, named with the suffix of `compression`.
  TraceWriter(const std::filesystem::path& folder, traces::Compression compression,
              const Program& program, const std::vector<HostCopy>& copies = {},
              const TraceSlot& slot = {});
  TraceWriter(const TraceWriter&) = delete;
  TraceWriter& operator=(const TraceWriter&) = delete;

  void write_header(const TraceHeader& header);
  void write_cta(const Cta& cta);
  // Flushes and closes the kernel file; throws sassim::Error when writing failed.
  void close();
  const std::filesystem::path& path() const { return file_->path(); }
  uint64_t lines() const { return lines_; }

 private:
  void flush();
  void line(const Warp& w, const TraceRecord& r);

  const Program& program_;
  TraceSlot slot_;
  std::unique_ptr<traces::OutputFile> file_;
  // Output bytes not yet written: lines are formatted straight into it.
  std::vector<char> buffer_ = std::vector<char>(size_t{4} << 20);
  size_t used_ = 0;
  void append(std::string_view text);
  std::vector<std::string> prefix_;  // per instruction: "PC\nNDST DSTS OPCODE NSRC SRCS "
  std::vector<uint8_t> pc_length_;   // per instruction: characters of the PC
  std::vector<std::string> suffix_;  // per instruction: " IMMEDIATE\n"
  std::vector<uint8_t> mem_width_;   // per instruction: bytes per thread, 0 = not memory
  uint64_t lines_ = 0;
};

}  // namespace sassim::emu
