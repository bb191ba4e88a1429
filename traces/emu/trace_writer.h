// Writes what the executor ran as an Accel-Sim trace (tracer version 5): kernelslist.g
// and kernel-1.traceg, one CTA at a time.
#pragma once

#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "traces/emu/state.h"

namespace sassim::emu {

struct TraceHeader {
  std::string kernel_name;
  Dim3 grid;
  Dim3 block;
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

class TraceWriter {
 public:
  // Creates `folder` if needed and writes kernelslist.g there: `copies`, then the kernel.
  TraceWriter(const std::filesystem::path& folder, const Program& program,
              const std::vector<HostCopy>& copies = {});
  ~TraceWriter();
  TraceWriter(const TraceWriter&) = delete;
  TraceWriter& operator=(const TraceWriter&) = delete;

  void write_header(const TraceHeader& header);
  void write_cta(const Cta& cta);
  // Flushes and closes kernel-1.traceg; throws sassim::Error when writing failed.
  void close();
  uint64_t lines() const { return lines_; }

 private:
  void flush();
  void line(const Warp& w, const TraceRecord& r);

  const Program& program_;
  std::filesystem::path path_;
  std::FILE* file_ = nullptr;
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
