#pragma once
// The SM's warpgroup matrix pipe (Hopper wgmma: HGMMA, IGMMA, QGMMA, BGMMA). A wgmma
// is issued by each of the up to four warps of its warpgroup (warps 4k..4k+3 of the
// CTA); the operation starts in the cycle the last of them issued it, once the SM's tensor
// units are free: one 64xN operation occupies the tensor units of all sub-cores for
// its initiation interval, operations start in issue order, and the accumulator is
// written `latency` cycles after the start. The warps do not wait for it: they wait
// only when they read the accumulator or execute WARPGROUP.DEPBAR.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "isa/instruction.h"
#include "memsys/sm_memory_port.h"

namespace sassim::sim {

// Warpgroups of the largest CTA (1024 threads).
inline constexpr std::uint32_t kWarpgroupsPerCta = 8;

// A first-in first-out queue on a vector (std::deque allocates even when empty, and
// there is one of these per warp slot and warpgroup of every SM).
template <typename T>
class Fifo {
 public:
  bool empty() const { return head_ == items_.size(); }
  std::size_t size() const { return items_.size() - head_; }
  T& operator[](std::size_t i) { return items_[head_ + i]; }
  T& front() { return items_[head_]; }
  void push_back(T value) { items_.push_back(value); }
  void pop_front() {
    if (++head_ == items_.size()) {
      items_.clear();
      head_ = 0;
    } else if (head_ >= 64 && 2 * head_ >= items_.size()) {
      items_.erase(items_.begin(), items_.begin() + static_cast<std::ptrdiff_t>(head_));
      head_ = 0;
    }
  }

 private:
  std::vector<T> items_;
  std::size_t head_ = 0;
};

// The wgmma a warp issued between two commits (wgmma.commit_group: the wgmma ending with
// gsb0 closes its group).
struct WgmmaGroup {
  std::uint32_t not_started = 0;  // its operations that have not started
  std::uint64_t done = 0;         // when its last started operation writes its accumulator
  bool committed = false;
};

// A warp's part in its warpgroup's matrix operations.
struct WarpgroupMmaWarp {
  Fifo<const isa::StaticInst*> not_started;  // its wgmma whose operation has not started
  Fifo<WgmmaGroup> groups;                   // oldest first; the newest may be open
  std::uint64_t last_done = 0;    // when the last started operation writes its accumulator
  bool waiting = false;           // at WARPGROUP.DEPBAR until the groups it waits for started
  std::uint8_t wait_pending = 0;  // that DEPBAR's N (kNoWgmmaPending: every group)

  // A wgmma issued; `commits`: it closes its group.
  void issued(bool commits);
  // The oldest of its operations not started has started, ending at `done`.
  void started(std::uint64_t done);
  // WARPGROUP.DEPBAR.LE gsb0, N (`pending` = N) waits for the committed groups but the
  // newest N; kNoWgmmaPending (no listing: traces do not record N nor the commits) for
  // every operation issued. Once all of those started, returns when the last ends and
  // forgets them; nullopt while one has not started.
  std::optional<std::uint64_t> release(std::uint8_t pending);
};

class WarpgroupMmaPipe {
 public:
  // At most `max_ctas` CTAs of at most `groups_per_cta` warpgroups each.
  WarpgroupMmaPipe(std::uint32_t max_ctas, std::uint32_t groups_per_cta);

  struct Timing {
    std::uint32_t latency = 0, interval = 0;
    std::uint32_t shared_bytes = 0;  // operand bytes read from shared memory
  };
  // The cycles of an operation that started.
  struct Started {
    std::uint64_t start = 0, done = 0;
    std::uint32_t interval = 0;
  };

  // Forgets the warpgroups of a CTA slot (a new CTA was placed in it).
  void reset_cta(std::uint32_t cta_slot);
  // Member `member` (0..members-1) of warpgroup `group` of the CTA in `cta_slot` issued
  // its next wgmma at `cycle`. Returns the operation's timing when this member was the
  // last to issue it (it then starts), else nullopt. Each member's n-th wgmma is the
  // group's n-th operation; an operation's timing is that given by its last member.
  std::optional<Started> arrive(std::uint32_t cta_slot, std::uint32_t group, std::uint32_t member,
                                std::uint32_t members, std::uint64_t cycle, Picos now,
                                const Timing& timing);
  // Operands from shared memory are read over the SM's shared data path (`port`,
  // `bytes_per_cycle` at full rate; none given: not limited): the read is requested
  // when the last member issues, and the operation starts no earlier than its
  // operands could begin to stream in after the traffic the data path already holds.
  void set_shared_data_path(memsys::SmMemoryPort* port, std::uint32_t bytes_per_cycle) {
    port_ = port;
    shared_bytes_per_cycle_ = bytes_per_cycle;
  }

  std::uint64_t operations() const { return operations_; }
  std::uint64_t busy_cycles() const { return busy_cycles_; }  // summed initiation intervals
  std::uint64_t shared_bytes() const { return shared_bytes_; }

 private:
  struct Group {
    std::uint32_t issued[4] = {0, 0, 0, 0};  // wgmma issued by each member
    std::uint32_t started = 0;               // operations started
    Fifo<std::uint32_t> arrived;             // members arrived at each operation not started
  };
  Group& group(std::uint32_t cta_slot, std::uint32_t g) {
    return groups_[cta_slot * groups_per_cta_ + g];
  }

  std::uint32_t groups_per_cta_;
  std::vector<Group> groups_;
  std::uint64_t free_cycle_ = 0;  // next cycle the tensor units accept an operation
  memsys::SmMemoryPort* port_ = nullptr;
  std::uint32_t shared_bytes_per_cycle_ = 0;
  std::uint64_t operations_ = 0, busy_cycles_ = 0, shared_bytes_ = 0;
};

}  // namespace sassim::sim
