#pragma once
// The traffic of a GPU's collectives ("gpu.hub"): the reads and writes NCCL's CTAs and
// the peers' NVLink writes make in this GPU's memory, as one requester on the crossbar's
// hub port (NVIDIA's HSHUB joins the NVLink ports to the crossbar). Each flow reads and
// writes its bytes in whole lines, spread evenly over its window: the i-th of n
// requests of a kind is due at begin + i x (end - begin) / n, and leaves at the first
// edge at or after that time with room in its Link (behind schedule it catches up as
// room allows, so a flow may end after its window when the memory system is loaded).
// A window shorter than one cycle sends its requests as fast as the Link takes them.
// Reads go to one address range, writes to another, the same for every flow (NCCL
// reuses its buffers on every call), apart from the traces' addresses. Responses are
// taken as they arrive and only counted.
#include <cstdint>
#include <string>
#include <vector>

#include "ground/link.h"
#include "ground/unit.h"
#include "memsys/mem_packet.h"

namespace sassim::memsys {

// Above the addresses CUDA allocations and the capture's emulated memory use.
inline constexpr std::uint64_t kHubReadBase = std::uint64_t{0xE0} << 40;
inline constexpr std::uint64_t kHubWriteBase = std::uint64_t{0xF0} << 40;

class HubTraffic final : public ClockedUnit {
 public:
  struct Counters {
    std::uint64_t flows = 0;
    std::uint64_t read_bytes = 0;   // requested (whole sectors)
    std::uint64_t write_bytes = 0;  // sent (whole sectors)
    std::uint64_t read_requests = 0, write_requests = 0, responses = 0;
  };
  // source: the crossbar port index its requests carry (MemRequest::sm).
  HubTraffic(Clock clock, std::uint32_t line_bytes, std::uint32_t sector_bytes,
             std::uint16_t source, Link<MemRequest>& to_noc, Link<MemResponse>& from_noc,
             Doorbell& inbox);

  // Reads read_bytes and writes write_bytes spread over [begin, end) (end >= begin).
  void add_flow(Picos begin, Picos end, std::uint64_t read_bytes, std::uint64_t write_bytes);
  // True while a flow has requests left to send.
  bool sending() const { return !flows_.empty(); }
  const Counters& counters() const { return counters_; }

  bool tick(std::uint64_t cycle, Picos now) override;
  Picos next_event_ps() const override { return std::min(inbox_.earliest_ps(), next_ps_); }
  bool busy() const override { return !flows_.empty() || outstanding_ != 0; }
  const std::string& name() const override { return name_; }
  std::string describe_state() const override;
  void report(StatSink& sink) const override;

 private:
  struct Stream {  // the reads or the writes of one flow
    std::uint64_t bytes = 0;
    std::uint64_t requests = 0;  // lines
    std::uint64_t sent = 0;
    std::uint64_t base = 0;
    Picos due(std::uint64_t i, Picos begin, Picos end) const;
  };
  struct Flow {
    Picos begin = 0, end = 0;
    Stream reads, writes;
    bool done() const { return reads.sent == reads.requests && writes.sent == writes.requests; }
  };
  Stream stream(std::uint64_t bytes, std::uint64_t base) const;
  // The time the next request of `s` is due (kNever when all were sent).
  static Picos next_due(const Flow& f, const Stream& s);
  void send_one(Stream& s, bool write, Picos now);
  Picos compute_next(Picos now) const;

  std::string name_ = "gpu.hub";
  Clock clock_;
  std::uint32_t line_bytes_, sector_bytes_;
  std::uint16_t source_;
  Link<MemRequest>& to_noc_;
  Link<MemResponse>& from_noc_;
  Doorbell& inbox_;
  std::vector<Flow> flows_;        // in the order added
  std::uint64_t outstanding_ = 0;  // reads without their response yet
  Picos next_ps_ = kNever;
  Counters counters_;
};

}  // namespace sassim::memsys
