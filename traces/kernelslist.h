#pragma once
// kernelslist.g: the command list of an Accel-Sim trace folder. Each non-blank line is
// "MemcpyHtoD,<hex address>,<bytes>", a collective of a multi-GPU rank
// ("Collective,...": traces/collective_line.h) or the name of a kernel trace file
// relative to the list's folder.
#include <cstdint>
#include <filesystem>
#include <variant>
#include <vector>

#include "traces/kernel_trace.h"

namespace sassim::traces {

struct KernelFile {
  std::filesystem::path path;  // resolved, existing (x.traceg, else x.traceg.xz or .zst)
  std::uint64_t list_line = 0;
};

using ListEntry = std::variant<MemcpyHtoD, KernelFile, CollectiveCommand>;

// Reads and checks the whole list, including that every kernel file exists. Throws
// sassim::Error naming the list file and line.
std::vector<ListEntry> read_kernelslist(const std::filesystem::path& list);

// `file` if it exists, else `file` + ".xz", else `file` + ".zst" if that exists, else
// nullopt.
std::optional<std::filesystem::path> find_trace_file(const std::filesystem::path& file);

}  // namespace sassim::traces
