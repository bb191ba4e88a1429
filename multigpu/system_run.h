#pragma once
// A multi-GPU run (docs/MULTIGPU.md): the ranks of a ranks.g folder, each a full GPU
// model replaying its rank's trace, their collectives placed on the system's topology.
// Ranks that replay the same folder are simulated once (a "player" stands for them: the
// same trace on the same GPU gives the same times). Players run on host threads and meet
// at sync times (multigpu/rank_sync.h); results do not depend on the thread count.
#include <cstdint>
#include <filesystem>
#include <vector>

#include "configs/sassim_config.pb.h"
#include "multigpu/collective_instance.h"
#include "multigpu/rank_sync.h"
#include "sim/gpu.h"
#include "system/system_model.h"

namespace sassim::multigpu {

// What a run will do, made and checked before anything is simulated.
struct SystemPlan {
  std::filesystem::path trace;                      // the folder holding ranks.g
  std::vector<std::filesystem::path> rank_folders;  // by rank
  std::vector<std::filesystem::path> folders;       // by player
  std::vector<Player> players;
  std::vector<CollectiveInstance> instances;  // each with its simulated result
  // Each collective's GPU side (its SMs and memory traffic) is charged to its GPUs
  // (the system config's gpu_side.charge).
  bool charge_gpu_side = true;
};

// Reads the ranks and every rank's collectives, matches each communicator's collectives
// across its ranks (the k-th call on a communicator is the same call on every rank of
// it, as NCCL requires) and simulates each on `model`. Throws sassim::Error naming the
// file and line of a collective with an unknown name, a rank outside the run, a rank
// that replays it but is not in its communicator, calls that differ between ranks, or a
// rank that never makes it; and when the run has more ranks than the system has GPUs.
SystemPlan plan_system_run(const std::filesystem::path& trace, const system::SystemModel& model);

struct PlayerResult {
  std::filesystem::path folder;
  std::vector<std::uint32_t> ranks;
  std::vector<sim::KernelResult> kernels;
  Picos end = 0;  // when its last kernel or collective ended
  // The bytes its collectives read and wrote in its memory (memsys/hub_traffic.h; 0
  // when not charged), apart from its kernels' traffic.
  std::uint64_t collective_read_bytes = 0;
  std::uint64_t collective_write_bytes = 0;
};

struct SystemResult {
  std::vector<PlayerResult> players;
  std::vector<CollectiveInstance> collectives;  // every one placed (unless stopped)
  Picos end = 0;                                // the last rank's end
  Picos lookahead = kNever;                     // sync times are its multiples
  std::uint64_t syncs = 0;
  Picos core_period_ps = 1;  // the GPUs' core clock
  bool stopped = false;      // a stop request ended the run early
};

struct SystemRunOptions {
  unsigned threads = 1;  // host threads in all (at least one a player)
  sim::StopRequest stop;
  sim::ProgressCallback progress;  // the first player's progress (rank 0), on its thread
};

// Simulates `plan` with every GPU built from `gpu`. Throws the first failing player's
// sassim::Error (by rank).
SystemResult run_system(const SystemPlan& plan, const config::GpuConfig& gpu,
                        const SystemRunOptions& options);

}  // namespace sassim::multigpu
