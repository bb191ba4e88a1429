#pragma once
// The narrow interface between trace formats and the timing model: a workload is a
// sequence of commands (memory copies and kernel launches); a kernel yields its CTAs
// in order, on demand, each with its warps' instruction streams already decoded.
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

#include "isa/arch.h"
#include "isa/instruction.h"
#include "traces/collective_line.h"
#include "traces/warp_stream.h"

namespace sassim::traces {

struct Dim3 {
  std::uint32_t x = 1, y = 1, z = 1;
  std::uint64_t count() const { return std::uint64_t{x} * y * z; }
  friend bool operator==(const Dim3&, const Dim3&) = default;
};

struct KernelInfo {
  std::string name;
  std::uint32_t id = 0;  // launch id from the trace ("-kernel id")
  Dim3 grid;
  Dim3 block;
  std::uint32_t shmem_bytes = 0;  // dynamic + static shared memory per CTA
  std::uint32_t nregs = 0;        // registers per thread
  int binary_version = 0;         // e.g. 80 for sm_80 cubins
  isa::Arch arch = isa::Arch::kSm80;
  std::int64_t stream_id = 0;
  std::uint64_t shmem_base = 0;  // generic-address window of shared memory
  std::uint64_t local_base = 0;  // generic-address window of local memory
  std::string tracer_version;    // "1.2", "3", "4", "5"
  // Thread block cluster ("-cluster dim", sm_90): CTAs per cluster in each dimension;
  // 1,1,1 when the kernel was launched without clusters.
  Dim3 cluster;
  std::uint64_t cluster_line = 0;  // line of "-cluster dim" (0: none), for messages
  std::string source;              // file the kernel came from (for messages)

  std::uint32_t warps_per_cta() const {
    return static_cast<std::uint32_t>((block.count() + 31) / 32);
  }
};

// Static instructions of one kernel, decoded once per PC; indices are stable and
// references stay valid while the table grows.
class StaticInstTable {
 public:
  // Index of the instruction at pc, or nullopt if not seen yet.
  std::optional<std::uint32_t> find(std::uint64_t pc) const {
    auto it = by_pc_.find(pc);
    if (it == by_pc_.end()) return std::nullopt;
    return it->second;
  }
  std::uint32_t add(const isa::StaticInst& inst) {
    auto index = static_cast<std::uint32_t>(insts_.size());
    insts_.push_back(inst);
    by_pc_.emplace(inst.pc, index);
    return index;
  }
  const isa::StaticInst& operator[](std::uint32_t index) const { return insts_[index]; }
  std::size_t size() const { return insts_.size(); }

 private:
  std::deque<isa::StaticInst> insts_;
  std::unordered_map<std::uint64_t, std::uint32_t> by_pc_;
};

// Lines of Hopper asynchronous operations (isa::AsyncOp: TMA / bulk copies and SYNCS
// mbarrier operations) keep a record as their addresses instead of per-thread
// addresses: word 0 the mbarrier's address (kNoTraceValue: the line names none),
// word 1 a value (kNoTraceValue: not recorded), word 2 a copy's multicast CTA mask
// (bit r: the CTA of cluster rank r; 0: not multicast), then, for copies, the transfer
// addresses. The value of a copy is its byte count; of a SYNCS line the value of its
// data register, which tracer-version-5 lines record as a negative immediate
// -(1 + value): expect-tx bytes (ARRIVE.TRANS64), phase parity (PHASECHK), arrival
// count (EXCH, the init). UTMACMDFLUSH keeps no record. docs/MODEL.md has the whole
// convention.
inline constexpr std::uint64_t kNoTraceValue = ~std::uint64_t{0};
inline constexpr std::uint32_t kAsyncRecordWords = 3;

// One CTA as read from a trace: each warp's instructions encoded in a TraceStore
// (traces/warp_stream.h), read through a WarpWindow. Addresses of an instruction: one per
// active thread, or the record of an asynchronous operation (above).
struct CtaTrace {
  Dim3 id;
  std::vector<WarpStream> warps;  // indexed by warp id within the CTA
  std::uint64_t instruction_count() const {
    std::uint64_t n = 0;
    for (const auto& w : warps) n += w.size();
    return n;
  }
};

// One kernel launch: header information, static instructions, CTAs on demand.
class KernelTrace {
 public:
  virtual ~KernelTrace() = default;
  virtual const KernelInfo& info() const = 0;
  virtual const StaticInstTable& statics() const = 0;
  // The next CTA in trace order, or nullopt when all were read. Throws sassim::Error
  // (naming the file and line) on malformed input.
  virtual std::optional<CtaTrace> next_cta() = 0;
  // Line of the trace where the static instruction was first decoded (0 if unknown).
  virtual std::uint64_t static_line(std::uint32_t /*static_index*/) const { return 0; }
};

struct MemcpyHtoD {
  std::uint64_t address = 0;
  std::uint64_t bytes = 0;
};

struct KernelLaunch {
  std::unique_ptr<KernelTrace> kernel;
};

// A collective among the GPUs of a multi-GPU system (traces/collective_line.h): ordered
// with the kernels of its stream; only a system run (multigpu/) can time it.
using Command = std::variant<MemcpyHtoD, KernelLaunch, CollectiveCommand>;

// A workload: commands in launch order.
class Workload {
 public:
  virtual ~Workload() = default;
  virtual std::optional<Command> next() = 0;
  // Kernel header of the first kernel, for choosing a preset without consuming it.
  virtual std::optional<KernelInfo> first_kernel_info() = 0;
  virtual std::string description() const = 0;
  // Kernel launches in the whole workload, when known before reading them (progress).
  virtual std::optional<std::size_t> kernel_count() const { return std::nullopt; }
  // Collectives of a multi-GPU rank's trace (traces/collective_line.h) in the workload.
  virtual std::size_t collective_count() const { return 0; }
};

}  // namespace sassim::traces
