#pragma once
// What an SM sees of the memory system: one port per SM that accepts warp memory
// instructions (with their per-thread addresses) and hands back the tokens of the
// ones that completed. Behind it: coalescer, shared memory, L1, and the path to L2.
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "ground/unit.h"
#include "isa/opcode.h"

namespace sassim::memsys {

inline constexpr std::uint32_t kNoAckToken = ~std::uint32_t{0};

struct WarpMemAccess {
  std::uint32_t token = 0;  // chosen by the SM; returned by pop_completed()
  // Stores and reductions to global or local memory: a second token, returned by
  // pop_completed() once the L2 has acknowledged every write request of the access
  // (kNoAckToken: the writes are not acknowledged).
  std::uint32_t ack_token = kNoAckToken;
  isa::MemSpace space = isa::MemSpace::kGlobal;
  isa::MemKind kind = isa::MemKind::kLoad;
  std::uint8_t bytes_per_thread = 4;
  std::uint32_t active_mask = 0;
  bool l1_bypass = false;  // cache operator: neither hits nor allocates in the L1
  isa::L1Policy l1_policy = isa::L1Policy::kNormal;  // cache operator: replacement priority
  std::span<const std::uint64_t> addresses;          // one per active thread, lane order
};

// kReduction: a store whose sectors the L2 combines with what it holds (UTMAREDG,
// UBLKRED: read-modify-write at the L2 slice, like RED).
// kSharedCopy: the source read of a shared -> shared::cluster copy (UBLKCP.S.S,
// UBLKRED.S.S): sectors read from shared memory at the engine's rate, nothing sent to
// the L2; the SM moves the data to the other CTA (sim/cluster_multicast.cc).
enum class TmaKind : std::uint8_t { kLoad, kStore, kPrefetch, kReduction, kSharedCopy };

// One TMA / bulk copy (memsys/tma_engine.h). Transfers: contiguous runs of `bytes /
// transfers.size()` bytes starting at each listed global address (a bulk copy has one; a tensor
// tile one per row or box as the trace lists them). bytes = 0 moves nothing and completes after
// setup.
struct TmaCopy {
  std::uint32_t token = 0;  // the caller's; handed back by complete()
  TmaKind kind = TmaKind::kLoad;
  std::uint32_t bytes = 0;
  std::vector<std::uint64_t> transfers;
  // Stores and reductions: a second token, handed back when the L2 has acknowledged
  // every write (kNoAckToken: the writes are not acknowledged). `token` itself comes
  // back when the source has been read from shared memory (the last request sent).
  std::uint32_t ack_token = kNoAckToken;
};

class SmMemoryPort {
 public:
  virtual ~SmMemoryPort() = default;
  // Whether stores and reductions submitted with an ack_token get it back once the L2
  // has acknowledged their writes; the SM asks for acknowledgements only then.
  virtual bool acknowledges_writes() const { return false; }
  // True when submit() may be called at time now (the LSU input queue has room).
  virtual bool can_accept(Picos now) const = 0;
  // Takes a warp memory instruction; addresses are copied as needed.
  virtual void submit(const WarpMemAccess& access, Picos now) = 0;
  // Token of an access that completed by time now: loads and atomics when all their
  // data is back; async copies when their data is back and written to shared memory;
  // stores and reductions once their last request entered the interconnect; shared
  // memory accesses after their bank passes (see memsys/l1_unit.h for the timing).
  virtual std::optional<std::uint32_t> pop_completed(Picos now) = 0;
  // Earliest time pop_completed() can return something; kNever when nothing is pending.
  virtual Picos next_completion_ps() const = 0;
  // Accesses accepted whose tokens have not been popped yet.
  virtual std::uint32_t outstanding() const = 0;
  // Bytes the SM's tensor units read from shared memory from time now on (wgmma
  // operands, addressed by descriptors, not by threads). They take the shared data
  // path's bandwidth as shared accesses do. Returns the core cycles the read occupies
  // the data path beyond the current one; 0 where the port does not limit it.
  virtual std::uint64_t read_tensor_operands(std::uint32_t bytes, Picos now) {
    (void)bytes;
    (void)now;
    return 0;
  }
  // Bytes another SM of the cluster reads from or writes into this SM's shared memory
  // from time now on (distributed shared memory, TMA multicast data). They take the
  // shared data path's bandwidth as the SM's own shared accesses do, queued behind the
  // traffic it already holds. Returns the core cycles until they begin on the data path
  // (0: at once); 0 where the port does not limit it.
  virtual std::uint64_t remote_shared_access(std::uint32_t bytes, Picos now) {
    (void)bytes;
    (void)now;
    return 0;
  }
  // Bytes another SM of the cluster writes into this SM's shared memory from time now on
  // (a shared::cluster bulk copy), taking the data path as remote_shared_access does.
  // Returns the core cycles beyond the current one until the write has passed the data
  // path (its wait for credit included); 0 where the port does not limit it.
  virtual std::uint64_t remote_shared_write(std::uint32_t bytes, Picos now) {
    (void)bytes;
    (void)now;
    return 0;
  }
  // The SM's shared-memory carve-out changed to `shared_bytes` (l1.shared_carveout_options_bytes,
  // set while no CTA is resident): the rest of the unified array becomes L1 data cache.
  virtual void set_shared_carveout(std::uint32_t shared_bytes) { (void)shared_bytes; }
  // The SM starts the CTAs of another kernel: the L1 data cache is invalidated, as at
  // every kernel launch on the hardware (the L1 is not coherent; Accel-Sim's
  // gpgpu_flush_l1_cache does the same).
  virtual void invalidate_l1_data() {}
  // A TMA / bulk copy for the SM's TMA engine; its token pops from pop_completed()
  // when the engine completes it (and its ack_token, if any, when its writes are
  // acknowledged). Not limited by can_accept(). Returns false where the port has no
  // TMA engine.
  virtual bool submit_tma(const TmaCopy& copy, Picos now) {
    (void)copy;
    (void)now;
    return false;
  }
};

}  // namespace sassim::memsys
