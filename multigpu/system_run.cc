// run_system (multigpu/system_run.h): one GPU model and host thread a player.
#include <algorithm>
#include <exception>
#include <memory>
#include <thread>

#include "multigpu/system_run.h"
#include "traces/accelsim_reader.h"
#include "traces/sass/listing.h"
#include "traces/trace_listings.h"

namespace sassim::multigpu {

SystemResult run_system(const SystemPlan& plan, const config::GpuConfig& gpu,
                        const SystemRunOptions& options) {
  const std::size_t n = plan.players.size();
  RankSync sync(plan.instances, plan.players, plan.charge_gpu_side);
  std::vector<std::unique_ptr<sim::Gpu>> gpus;
  std::vector<std::unique_ptr<traces::Workload>> workloads;
  const unsigned per_gpu = std::max(1u, options.threads / static_cast<unsigned>(n));
  for (std::size_t p = 0; p < n; ++p) {
    gpus.push_back(std::make_unique<sim::Gpu>(gpu));
    gpus[p]->set_threads(per_gpu);
    std::vector<traces::sass::Listing> listings;
    for (const std::filesystem::path& file : traces::stored_listings(plan.folders[p]))
      listings.push_back(traces::sass::read_listing(file));
    gpus[p]->set_sass_listings(std::move(listings));
    gpus[p]->set_collective_port(&sync.port(p));
    workloads.push_back(traces::open_accelsim_workload(plan.folders[p]));
  }
  SystemResult result;
  result.players.resize(n);
  std::vector<std::exception_ptr> errors(n);
  std::vector<char> stopped(n, 0);
  {
    std::vector<std::jthread> threads;
    for (std::size_t p = 0; p < n; ++p) {
      threads.emplace_back([&, p] {
        bool normal = false;
        bool ended = false;
        try {
          result.players[p].kernels = gpus[p]->run(
              *workloads[p], p == 0 ? options.progress : sim::ProgressCallback{}, options.stop);
          stopped[p] = gpus[p]->stopped() ? 1 : 0;
          normal = !stopped[p];
          result.players[p].end = gpus[p]->now();
          ended = true;
          // What its last collectives left in flight reaches the memory after its end.
          if (normal) gpus[p]->drain_memory();
        } catch (...) {
          errors[p] = std::current_exception();
          normal = false;
        }
        if (!ended) result.players[p].end = gpus[p]->now();
        result.players[p].collective_read_bytes = gpus[p]->collective_traffic().read_bytes;
        result.players[p].collective_write_bytes = gpus[p]->collective_traffic().write_bytes;
        sync.leave(p, normal);
      });
    }
  }
  // The first failure by rank that is not another's consequence.
  for (const std::exception_ptr& e : errors) {
    if (!e) continue;
    try {
      std::rethrow_exception(e);
    } catch (const RunAborted&) {
    }
  }
  result.stopped = std::any_of(stopped.begin(), stopped.end(), [](char s) { return s != 0; });
  if (!result.stopped) {
    for (const std::exception_ptr& e : errors) {
      if (e) std::rethrow_exception(e);
    }
  }
  for (std::size_t p = 0; p < n; ++p) {
    result.players[p].folder = plan.folders[p];
    result.players[p].ranks = plan.players[p].ranks;
    result.end = std::max(result.end, result.players[p].end);
  }
  result.collectives = sync.instances();
  result.lookahead = sync.lookahead();
  result.syncs = sync.syncs();
  result.core_period_ps = gpus.front()->core_period_ps();
  return result;
}

}  // namespace sassim::multigpu
