#pragma once
// The values that travel between the memory units. Lines are named by their line
// index (byte address / line_bytes); the L1 and the L2 share one line and sector size.
#include <cstdint>

#include "ground/unit.h"

namespace sassim::memsys {

// Every packet on the interconnect carries this much header (address, command, ids).
inline constexpr std::uint32_t kPacketHeaderBytes = 8;

enum class ReqKind : std::uint8_t {
  kRead,       // fetch sectors; answered with their data
  kWrite,      // write-through store data; no answer
  kAtomic,     // read-modify-write at the L2; answered with the old values
  kReduction,  // read-modify-write at the L2; no answer
};

// True for kinds whose request carries data (the stored or operand bytes).
inline bool request_carries_data(ReqKind kind) {
  return kind != ReqKind::kRead;
}
// True for kinds the L2 answers with data. Writes and reductions that ask for an
// acknowledgement (MemRequest::acknowledge) are answered with a header only.
inline bool expects_response(ReqKind kind) {
  return kind == ReqKind::kRead || kind == ReqKind::kAtomic;
}

// How the interconnect routed a read of a far line (interconnect.replicate_far_reads);
// the slice echoes it in the response, so the way back needs no lookup.
struct FarRead {
  enum class State : std::uint8_t {
    kNone,  // not a far read
    kMiss,  // the near copy lacked its sectors: the response leaves them there
    kNear,  // the near copy holds them: timed near both ways
  };
  std::uint16_t copy = 0;  // the near slice that holds (or will hold) the copy
  State state = State::kNone;
};

// SM (L1) to L2 slice.
struct MemRequest {
  std::uint64_t line = 0;
  std::uint32_t sector_mask = 0;  // sectors touched
  std::uint32_t full_mask = 0;    // sectors written entirely (writes only)
  std::uint32_t tag = 0;          // requester's id, echoed in the response
  std::uint16_t sm = 0;
  ReqKind kind = ReqKind::kRead;
  // Writes and reductions: the slice answers once it has executed the request (TMA
  // stores and reductions, whose bulk async-groups wait for their writes).
  bool acknowledge = false;
  // Set by an L2 slice on a read it has answered while the read still waited in its
  // queue, together with an earlier read of the same line (l2.merge_queued_reads).
  bool answered = false;
  // A near slice's fetch of a far line from its home slice
  // (interconnect.near_slice_serves_far_reads): `sm` is that slice's index and `tag` its
  // MSHR; the response goes to the slice's fills.
  bool from_slice = false;
  FarRead far{};  // set by the interconnect
};

// L2 slice back to an SM. For a write or reduction: its acknowledgement, no data.
struct MemResponse {
  std::uint64_t line = 0;
  std::uint32_t sector_mask = 0;
  std::uint32_t tag = 0;
  std::uint16_t sm = 0;
  ReqKind kind = ReqKind::kRead;
  bool to_slice = false;  // the answer to a MemRequest::from_slice (sm: the slice)
  FarRead far{};          // the request's
};

// L2 slice to a DRAM channel: a sector fetch or a writeback of dirty sectors.
struct DramRequest {
  std::uint64_t line = 0;
  Picos sent_ps = 0;  // the slice's edge that sent it (DRAM latency counts from here)
  std::uint32_t sector_mask = 0;
  std::uint32_t tag = 0;  // slice MSHR index for reads
  std::uint16_t slice = 0;
  bool write = false;
};

// DRAM channel back to the slice that asked (reads only).
struct DramResponse {
  std::uint64_t line = 0;
  std::uint32_t sector_mask = 0;
  std::uint32_t tag = 0;
};

}  // namespace sassim::memsys
