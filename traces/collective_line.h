#pragma once
// A collective among the GPUs of a multi-GPU system, as one line of a rank's
// kernelslist.g (docs/MULTIGPU.md):
//   Collective,all_reduce,bytes=16384,type=bf16,ranks=0-7,stream=0
// op: all_reduce, all_gather, reduce_scatter, alltoall, sendrecv or send; bytes: nccl-tests'
// size (system/collective.h); type: bf16, fp16 or fp32; ranks: the communicator's GPU ranks
// in rank order as ranges joined by ':' ("0-3:8-11"; "all": every GPU of the system);
// stream: the CUDA stream it is ordered in with the kernels (default 0). Optional:
// algorithm=auto|ring|tree|nvls|p2p, protocol=auto|ll|ll128|simple. The names are the
// system layer's; this layer checks the line's form.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sassim::traces {

inline constexpr std::string_view kCollectivePrefix = "Collective";

struct CollectiveCommand {
  std::string op;
  std::uint64_t bytes = 0;
  std::string type;
  std::vector<std::uint32_t> ranks;  // empty: every GPU of the system
  std::int64_t stream = 0;
  std::string algorithm = "auto";
  std::string protocol = "auto";
  std::string source;  // the list file and line, for messages ("rank-0/kernelslist.g:7")
};

// Parses a line starting with "Collective". Throws sassim::Error naming `source`:`line`
// and what was expected.
CollectiveCommand parse_collective_line(std::string_view text, std::string_view source,
                                        std::uint64_t line);

// The line for `c` (no newline), which parse_collective_line reads back.
std::string format_collective_line(const CollectiveCommand& c);

// "0-7", "0-3:8-11", "all" for none.
std::string format_ranks(const std::vector<std::uint32_t>& ranks);

}  // namespace sassim::traces
