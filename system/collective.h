#pragma once
// The vocabulary of collectives: operations, algorithms, protocols, data types, a call
// and its result (nccl-tests' definitions of sizes and bandwidths).
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace sassim::system {

enum class CollectiveOp { kAllReduce, kAllGather, kReduceScatter, kAllToAll, kSendRecv, kSend };
enum class Algorithm { kAuto, kRing, kTree, kNvls, kP2p };
enum class Protocol { kAuto, kLl, kLl128, kSimple };
enum class DataType { kBf16, kFp16, kFp32 };

// "all_reduce", "ring", "ll128", "bf16", ...
std::string_view name_of(CollectiveOp op);
std::string_view name_of(Algorithm algorithm);
std::string_view name_of(Protocol protocol);
std::string_view name_of(DataType type);
std::optional<CollectiveOp> parse_op(std::string_view text);
std::optional<Algorithm> parse_algorithm(std::string_view text);
std::optional<Protocol> parse_protocol(std::string_view text);
std::optional<DataType> parse_data_type(std::string_view text);
uint32_t size_of(DataType type);

// One collective call. `bytes` is nccl-tests' size: the all_reduce buffer, the all_gather
// output (all ranks' parts), the reduce_scatter input, a rank's whole all-to-all send
// buffer (bytes / n to each rank, itself included), the message of send/recv. send/recv:
// each rank sends to the next in `ranks` and receives from the previous one (nccl-tests'
// sendrecv); send: ranks[0] sends to ranks[1] only.
struct CollectiveCall {
  CollectiveOp op = CollectiveOp::kAllReduce;
  uint64_t bytes = 0;
  DataType type = DataType::kFp32;
  std::vector<uint32_t> ranks;  // GPU ranks of the communicator in rank order; empty: all
  Algorithm algorithm = Algorithm::kAuto;
  Protocol protocol = Protocol::kAuto;
};

// What a collective takes of one GPU: the CTAs (one SM each) and its memory traffic.
struct GpuSide {
  uint32_t rank = 0;  // GPU rank in the system
  uint32_t sms = 0;
  uint64_t memory_read_bytes = 0;
  uint64_t memory_write_bytes = 0;
};

struct CollectiveResult {
  int64_t time_ps = 0;  // from the call to the last rank's completion
  Algorithm algorithm = Algorithm::kRing;
  Protocol protocol = Protocol::kSimple;
  uint32_t channels = 0;
  double algbw_gb_per_s = 0;             // bytes / time
  double busbw_gb_per_s = 0;             // algbw x bus_factor
  std::vector<uint64_t> link_bytes;      // per link of the topology: wire bytes
  std::vector<double> link_utilisation;  // per link: busy time / time
  std::vector<GpuSide> gpus;             // per communicator rank
};

// nccl-tests' bus bandwidth factor: 2(n-1)/n all_reduce; (n-1)/n all_gather,
// reduce_scatter, all-to-all; 1 send/recv.
double bus_factor(CollectiveOp op, uint32_t ranks);

}  // namespace sassim::system
