#pragma once
// workload.txt beside a kernelslist.g: what one replay of a `sassim workload` trace folder
// computes, so that `sassim run` can state time, tokens per second and DRAM bytes per token
// (docs/LLM.md). One "key value" per line; '#' starts a comment:
//   workload dense-layer
//   phase decode            # or prefill
//   batch 1                 # sequences
//   context 4096            # decode: the longest context; prefill: every prompt's length
//   tokens 1                # tokens one replay processes (decode: batch; prefill: batch x context)
//   model_layers 32         # layers of the model this layer stands for (num_hidden_layers)
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace sassim::traces {

inline constexpr std::string_view kWorkloadFile = "workload.txt";

struct WorkloadInfo {
  std::string workload;
  std::string phase;  // "decode" or "prefill"
  std::uint64_t batch = 0;
  std::uint64_t context = 0;
  std::uint64_t tokens = 0;
  std::uint64_t model_layers = 0;
};

// The folder of a trace given as a folder, its kernelslist.g or one of its kernel files.
std::filesystem::path trace_folder(const std::filesystem::path& trace);

// Writes FOLDER/workload.txt. Throws sassim::Error naming the file when it cannot.
void write_workload_info(const std::filesystem::path& folder, const WorkloadInfo& info);

// The workload.txt of the trace's folder (`trace`: a folder, its kernelslist.g or one of its
// kernel files); nullopt when there is none. Throws sassim::Error naming the file and line
// of an unknown key, a bad value, a key given twice or missing, tokens or model_layers 0.
std::optional<WorkloadInfo> read_workload_info(const std::filesystem::path& trace);

}  // namespace sassim::traces
