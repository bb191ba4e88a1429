#pragma once
// One streaming multiprocessor: warp slots spread over sub-cores, each sub-core's
// scheduler issuing at most one warp instruction per cycle to its functional
// units, a register scoreboard per warp, CTA barriers, and the port to the memory
// system. Ticked in the core clock domain.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "configs/sassim_config.pb.h"
#include "ground/timed_queue.h"
#include "ground/unit.h"
#include "isa/flops.h"
#include "memsys/sm_memory_port.h"
#include "sim/async_engine.h"
#include "sim/cluster_barrier.h"
#include "sim/cluster_endpoint.h"
#include "sim/control_flow.h"
#include "sim/frontend.h"
#include "sim/kernel_context.h"
#include "sim/lsu.h"
#include "sim/mbarrier.h"
#include "sim/scheduler_policy.h"
#include "sim/sm_network.h"
#include "sim/warp.h"
#include "sim/warpgroup_mma.h"

namespace sassim::sim {

// isa::MmaType values (kNone .. kBinary).
inline constexpr std::size_t kNumTensorTypes = 9;

struct SmCounters {
  std::uint64_t warp_insts = 0;
  std::uint64_t ctas = 0;
  std::uint64_t busy_cycles = 0;   // cycles with at least one resident CTA
  std::uint64_t issue_cycles = 0;  // sub-core cycles that issued an instruction
  std::uint64_t barrier_waits = 0;
  // Issued instructions whose register reads delayed their dispatch (sm.register_file).
  std::uint64_t register_bank_conflicts = 0;
  // Sub-core cycles the tensor pipes were occupied (the issue interval of each
  // matrix instruction, summed over sub-cores): utilisation = this / (cycles x sub-cores).
  std::uint64_t tensor_busy_cycles = 0;
  std::array<std::uint64_t, isa::kNumUnitClasses> insts_by_unit{};
  std::array<std::uint64_t, kNumWarpCycleStates> warp_cycles{};  // summed over resident warps
  std::array<double, isa::kNumFlopKinds> flops{};                // by isa::FlopKind
  std::array<double, kNumTensorTypes> tensor_flops{};  // matrix instructions, by isa::MmaType
};

// How the per-warp cycle states are kept: recomputed only for warps whose state may
// have changed (the default); recomputed for every warp twice per tick; or kept
// incrementally and checked against a full recomputation each time (throws on a
// difference). All three count the same cycles.
enum class WarpStateAccounting : std::uint8_t { kIncremental, kFull, kChecked };

// Attached from outside (tests, debug tracing) to see every issued instruction.
class IssueObserver {
 public:
  virtual ~IssueObserver() = default;
  virtual void issued(std::uint32_t sm, unsigned warp_slot, std::uint64_t cycle,
                      const isa::StaticInst& inst) = 0;
};

// The SM's parts, each in its own header: sim/sm_cta_slot.h, sim/sub_core.h,
// sim/warp_class.h.
struct CtaSlot;
struct SubCore;
struct WarpClass;

class Sm final : public ClockedUnit, private ClusterEndpoint::Listener, private Lsu::DsmemSender {
 public:
  Sm(std::uint32_t id, const config::GpuConfig& config, memsys::SmMemoryPort& port, Clock core);
  ~Sm() override;

  std::uint32_t id() const { return id_; }
  void set_retire_listener(CtaRetireListener* listener) { listener_ = listener; }
  void set_issue_observer(IssueObserver* observer) { observer_ = observer; }
  void set_warp_state_accounting(WarpStateAccounting mode) { accounting_ = mode; }
  // Where the SM sends what it hands to other SMs (CTAs of a cluster need one).
  void set_network(SmNetwork::Outbox* outbox) { endpoint_.set_outbox(outbox); }
  // True when `count` CTAs with these resources fit now.
  bool can_accept(const CtaResources& cta, std::uint32_t count = 1) const;
  // Makes a CTA resident; its warps may issue from `cycle` + CTA launch latency. CTAs
  // of different kernels may be resident together. A CTA of a cluster joins its
  // cluster's barrier.
  void accept(traces::CtaTrace cta, const KernelContext& kernel, std::uint64_t cycle,
              ClusterMembership cluster = {});
  std::uint32_t resident_ctas() const { return resident_ctas_; }
  const SmCounters& counters() const { return counters_; }
  const FrontendCounters& frontend_counters() const { return frontend_.counters(); }

  bool tick(std::uint64_t cycle, Picos now) override;
  Picos next_event_ps() const override;
  bool busy() const override { return resident_ctas_ != 0; }
  const std::string& name() const override { return name_; }
  std::string describe_state() const override;
  void report(StatSink& sink) const override;

 private:
  const KernelContext& kernel_of(const Warp& w) const;
  // Moves warp w to instruction `next` of its window and caches what issue checks
  // about it (Warp::next_inst); read_next reads that from the window. The window keeps
  // the instruction before `next` (the one just issued) and its addresses.
  void set_next(Warp& w, std::uint32_t next);
  NextInst read_next(const Warp& w) const;
  bool complete_memory(std::uint64_t cycle, Picos now);
  bool issue(SubCore& sub, std::uint64_t cycle, Picos now);
  void execute(unsigned slot, std::uint64_t cycle, Picos now);
  // A memory instruction enters address generation (`latency_cycles`, plus
  // `dispatch_delay` of operand reads), through the sub-core's LSU queue if it has one.
  void issue_memory(unsigned slot, const isa::StaticInst& si, const isa::WarpInst& wi,
                    std::uint64_t latency_cycles, std::uint64_t dispatch_delay,
                    std::uint64_t interval, Picos now);
  // Local-memory addresses (each thread's offset) to where the thread's words lie
  // (sim/local_memory.h), one per active lane in lane order.
  void spread_local(const KernelContext& kernel, unsigned slot, std::uint32_t active_mask,
                    std::uint32_t bytes_per_thread, std::vector<std::uint64_t>& addresses) const;
  void advance(unsigned slot, std::uint64_t earliest);
  // Cycles register-bank conflicts delay the dispatch of the warp's next instruction
  // (updates its reuse cache); sm_register_file.cc.
  std::uint32_t operand_read_delay(Warp& w, const isa::WarpInst& wi, const isa::StaticInst& si);
  // Warpgroup matrix instructions (sm_warpgroup.cc).
  std::uint64_t warpgroup_mma_ready(const Warp& w, const isa::StaticInst& si,
                                    std::uint64_t earliest) const;
  // The listing's control bits (when there is one) say which wgmma commit a group and
  // the N of WARPGROUP.DEPBAR.LE gsb0, N.
  void issue_warpgroup_mma(unsigned slot, const isa::StaticInst& si, const isa::WarpInst& wi,
                           std::uint64_t cycle, Picos now);
  void wait_for_warpgroup_mma(unsigned slot, const isa::WarpInst& wi, std::uint64_t cycle);
  void report_tensor(StatSink& sink) const;
  // BAR.SYNC / BAR.RED (wait) and BAR.ARV (arrive only); sm_barriers.cc.
  void arrive_at_barrier(unsigned slot, const isa::DecodedOpcode& op, bool wait,
                         std::uint64_t cycle);
  // Resumes the warps waiting at the barriers in `mask` (bit i = barrier i).
  void release_barriers(CtaSlot& cta, std::uint32_t mask, std::uint64_t cycle);
  // UCGABAR_ARV / UCGABAR_WAIT (sm_cluster.cc). wait_at_cluster_barrier returns true
  // when the warp now waits; otherwise it may raise next_issue.
  void arrive_at_cluster_barrier(unsigned slot, std::uint64_t cycle);
  bool wait_at_cluster_barrier(unsigned slot, std::uint64_t cycle, std::uint64_t& next_issue);
  ClusterBarrier& cluster_barrier(std::uint32_t cta_slot);
  // A cluster barrier event of the CTA: over the network for a launched cluster, applied
  // at once to a cluster of one.
  void cluster_event(const CtaSlot& c, net::Message event);
  // Whether the SM has seen the cluster barrier phase the warp arrived in complete.
  bool cluster_phase_completed(const Warp& w) const;
  // What the network delivers to the CTAs (ClusterEndpoint::Listener; sm_cluster.cc).
  bool holds_cta(std::uint32_t cta_slot) const override;
  void cluster_phase_completed(std::uint32_t cta_slot, std::uint64_t resume) override;
  void tx_issued(std::uint32_t cta_slot, std::uint64_t barrier, std::uint64_t bytes) override;
  void remote_arrived(std::uint32_t cta_slot, std::uint64_t barrier, std::uint32_t arrivals,
                      std::uint64_t cycle) override;
  void tx_completed(std::uint32_t cta_slot, std::uint64_t barrier, std::uint64_t bytes,
                    std::uint64_t cycle) override;
  // Resumes the warps of completed cluster barriers due by `cycle`.
  bool deliver_cluster_releases(std::uint64_t cycle);
  // Distributed shared memory (sm_dsmem.cc): sends an access to another CTA's shared
  // memory over the SM-to-SM network (Lsu::DsmemSender); takes the replies due.
  void send_dsmem(const memsys::WarpMemAccess& access, Picos now) override;
  bool complete_dsmem(std::uint64_t cycle);
  // A completed memory access or copy (its token); sm_memory.cc.
  void complete_access(std::uint32_t token, std::uint64_t cycle);
  // Hopper TMA copies and mbarriers (sm_tma.cc). issue_async returns true when the
  // warp now waits on an mbarrier.
  bool issue_async(unsigned slot, const isa::StaticInst& si, const isa::WarpInst& wi,
                   std::uint64_t cycle, Picos now);
  bool submit_tma_copies(std::uint64_t cycle, Picos now);
  void complete_tma(const PendingAccess& p, std::uint64_t cycle);
  // A token handed back once the L2 has acknowledged every write of an ordinary store or
  // reduction (bulk = false) or of a TMA store or reduction of bulk group `bulk_group`;
  // completing it counts the acknowledgement for the warp, unless the warp has exited.
  std::uint32_t acquire_ack_token(unsigned slot, bool bulk, std::uint64_t bulk_group);
  void complete_acknowledgement(std::uint32_t token, std::uint64_t cycle);
  void wake_mbarrier_waiters(const std::vector<unsigned>& slots, std::uint64_t cycle);
  void finish_warp(unsigned slot, std::uint64_t cycle);
  void retire_cta(std::uint32_t cta_slot, std::uint64_t cycle);
  // The earliest cycle after `after` at which a warp may issue or change state; from
  // the warps not blocked on an event and their cached next pipe unless every_warp
  // (the checked accounting's reference).
  std::uint64_t next_issue_cycle(std::uint64_t after, bool every_warp = false) const;
  bool can_issue(unsigned slot, const SubCore& sub, std::uint64_t cycle) const;
  // The state a warp is in at `cycle` given what is known now (it did not issue),
  // how long it holds and what it depends on; sm_warp_states.cc.
  WarpClass classify(const Warp& w, const SubCore& sub, std::uint64_t cycle) const;
  // Counts the warp's cycles in its current state up to `cycle` and switches state.
  void account(Warp& w, std::uint64_t cycle, WarpCycleState next);
  // Counts every resident warp's cycles up to from_cycle and gives it the state it
  // is in at state_cycle.
  void account_all(std::uint64_t from_cycle, std::uint64_t state_cycle);
  // account_all's incremental part: reclassifies the warps marked, expired or
  // depending on an address stage whose fullness changed.
  void reclassify_changed(std::uint64_t from_cycle, std::uint64_t state_cycle);
  // The state of a ready warp whose next instruction is a memory access.
  static WarpClass after_address_stage(const SubCore& sub, std::uint64_t cycle, bool full,
                                       WarpCycleState throttle);
  // The throttle state of a memory instruction held by the memory pipe.
  static WarpCycleState memory_throttle(const isa::StaticInst& si);
  // Caches the warp's classification (in the sub-core's masks and state_until).
  void set_class(SubCore& sub, unsigned local, const WarpClass& c);
  void check_warp_states(std::uint64_t state_cycle) const;
  // Throws unless `ready` holds every warp of the sub-core that can issue.
  void check_issue_candidates(const SubCore& sub, std::uint64_t cycle, std::uint64_t ready) const;
  // Marks a warp whose state may have changed; the sub-core's issue marks the warps
  // that depend on its pipes and dispatch.
  void reclassify(unsigned slot);
  void note_issue(SubCore& sub, unsigned slot);
  // Per sub-core masks of local slots: those that may issue now (a superset of the
  // warps can_issue accepts) and those whose ready cycle next_issue_cycle must see.
  static std::uint64_t all_slots(const SubCore& sub);
  std::uint64_t issue_candidates(const SubCore& sub) const;
  std::uint64_t timed_warps(const SubCore& sub) const;
  // The warp cycle counters with every resident warp counted up to the last tick.
  std::array<std::uint64_t, kNumWarpCycleStates> warp_cycles() const;

  std::uint32_t id_;
  std::string name_;
  Clock clock_;
  memsys::SmMemoryPort& port_;
  CtaRetireListener* listener_ = nullptr;
  IssueObserver* observer_ = nullptr;

  // Limits.
  std::uint32_t max_warps_, max_threads_, max_ctas_, registers_, shared_bytes_;
  std::uint64_t last_launch_seq_ = 0;  // KernelContext::launch_seq of the last CTA taken
  std::uint32_t cta_launch_latency_, barrier_latency_, cluster_barrier_latency_;
  std::uint32_t load_to_memory_operand_;  // sm.load_to_memory_operand_cycles

  Frontend frontend_;
  ControlFlowCosts control_costs_;
  std::vector<Warp> warps_;
  std::vector<SubCore> sub_cores_;
  std::vector<CtaSlot> ctas_;
  WarpgroupMmaPipe wgmma_;
  std::vector<WarpgroupMmaWarp> wgmma_warps_;  // by warp slot
  // The LSU queues, the address stage and the accesses in flight (sim/lsu.h).
  Lsu lsu_;
  // TMA copies in address generation and the mbarriers (sim/async_engine.h).
  AsyncEngine async_;
  // The SM's end of the SM-to-SM network and its cluster traffic (sim/cluster_endpoint.h).
  ClusterEndpoint endpoint_;

  std::uint32_t resident_ctas_ = 0, used_warps_ = 0, used_threads_ = 0, used_registers_ = 0,
                used_shared_ = 0;
  std::uint64_t next_age_ = 0;
  std::uint64_t busy_since_ = 0;
  std::uint64_t next_cycle_ = kNeverCycle;  // cached earliest cycle with work
  // Warp-state accounting (sm_warp_states.cc): account_all calls so far and the last
  // one's from_cycle, the earliest cycle a cached state expires, the address stage's
  // fullness at the last call.
  WarpStateAccounting accounting_ = WarpStateAccounting::kIncremental;
  std::uint64_t account_seq_ = 1, flushed_to_ = 0;
  std::uint64_t next_expiry_ = kNeverCycle;
  bool address_stage_was_full_ = false;
  SmCounters counters_;
};

}  // namespace sassim::sim
