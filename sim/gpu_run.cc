// The GPU's workloads (sim/gpu.h): launches start in stream order when their
// dependencies are done, up to simulation.max_concurrent_kernels at once; memory copies
// wait for everything before them; kernel sampling (sim/kernel_sampler.h) estimates
// some launches instead of running them; collectives (sim/gpu_collectives.h) wait for
// the other GPUs of a multi-GPU run.
#include <optional>
#include <utility>

#include <fmt/format.h>

#include "ground/error.h"
#include "sim/gpu.h"
#include "sim/gpu_collectives.h"
#include "sim/gpu_launch.h"
#include "sim/launch_graph.h"

namespace sassim::sim {

void Gpu::run_until_one_finishes(std::vector<std::unique_ptr<Launch>>& running,
                                 std::vector<std::unique_ptr<Launch>>& finished_launches,
                                 Picos limit) {
  std::uint64_t steps = 0;
  const bool reached = engine_.run_until(
      [&] {
        if ((++steps & 0x3ff) == 0) {
          if (stop_ && stop_()) {
            stopped_ = true;
            return true;
          }
          if (progress_) progress_(progress_event(running.front().get()));
        }
        for (const auto& launch : running) {
          if (launch->cta_sampler) {
            launch->cta_sampler->observe(
                launch->progress.ctas_retired.load(std::memory_order_relaxed), core_cycle(),
                [&] { return snapshot(); });
          }
        }
        for (const auto& launch : running) {
          if (finished(*launch, running.size())) return true;
        }
        return false;
      },
      limit);
  if (stopped_ || !reached) return;
  // Every launch that is done at this cycle finishes now, in launch order.
  const std::size_t count = running.size();
  for (auto it = running.begin(); it != running.end();) {
    if (finished(**it, count)) {
      finished_launches.push_back(std::move(*it));
      it = running.erase(it);
    } else {
      ++it;
    }
  }
}

KernelResult Gpu::run_kernel(traces::KernelTrace& kernel) {
  auto launch = prepare(kernel, 0);
  if (kernels_done_ > 0) {
    engine_.advance_to(engine_.now() +
                       engine_.clock(ClockDomain::kCore)
                           .edge(config_.simulation().kernel_launch_latency_cycles()));
  }
  start(*launch);
  std::vector<std::unique_ptr<Launch>> running, done;
  running.push_back(std::move(launch));
  while (done.empty()) run_until_one_finishes(running, done);
  return finish(*done.front());
}

void Gpu::idle_until(Picos t) {
  if (!memory_idle()) engine_.run_until([this] { return memory_idle(); }, t);
  engine_.advance_to(t);
}

void Gpu::drain_memory() {
  if (!memory_idle()) engine_.run_until([this] { return memory_idle(); });
}

ProgressEvent Gpu::progress_event(const Launch* current) const {
  ProgressEvent e{kernels_done_, kernels_total_, 0, 0, nullptr, core_cycle(), total_warp_insts()};
  if (current != nullptr) {
    const traces::Dim3& grid = current->trace->info().grid;
    e.current = &current->trace->info();
    e.ctas_done = current->progress.ctas_retired.load(std::memory_order_relaxed);
    e.ctas_total = std::uint64_t{grid.x} * grid.y * grid.z;
  }
  return e;
}

std::vector<KernelResult> Gpu::run(traces::Workload& workload, const ProgressCallback& progress,
                                   const StopRequest& stop) {
  progress_ = progress;
  stop_ = stop;
  stopped_ = false;
  kernels_total_ = workload.kernel_count().value_or(0);
  LaunchGraph graph;
  std::vector<std::unique_ptr<Launch>> pending, running, done;
  std::vector<std::optional<KernelResult>> results;
  std::optional<traces::MemcpyHtoD> held_copy;  // waits for every launch before it
  bool end_of_trace = false;
  const std::size_t max_running = config_.simulation().max_concurrent_kernels();
  if (port_ != nullptr && sampler_ != nullptr) {
    throw Error("kernel sampling cannot run with the collectives of a multi-GPU system");
  }
  GpuCollectives collectives(port_, engine_.clock(ClockDomain::kCore), cta_scheduler_.get(),
                             &memory_->hub());
  auto finish_done = [&] {
    for (auto& launch : done) {
      graph.mark_done(launch->order);
      results[launch->order] = finish(*launch);
      if (sampler_ != nullptr) sampler_->record(launch->order, *results[launch->order]);
      if (progress_) progress_(progress_event(nullptr));
    }
    done.clear();
  };
  // Moves time to t, stopping at every sync time on the way (a collective that ends
  // before t is seen ended at t: this is the launch latency's gap).
  auto advance_to = [&](Picos t) {
    for (Picos s = collectives.next_sync(); s <= t; s = collectives.next_sync()) {
      idle_until(s);
      collectives.sync_if_due(s, running.empty());
    }
    idle_until(t);
  };

  while (!stopped_) {
    if (stop_ && stop_()) {
      stopped_ = true;
      break;
    }
    // Read ahead while launches could start (a held copy stops reading).
    while (!end_of_trace && !held_copy && pending.size() + running.size() < max_running) {
      std::optional<traces::Command> command = workload.next();
      if (!command) {
        end_of_trace = true;
        break;
      }
      if (auto* collective = std::get_if<traces::CollectiveCommand>(&*command)) {
        collectives.add(graph.add_launch(collective->stream), *collective);
        results.emplace_back();
        continue;
      }
      if (auto* copy = std::get_if<traces::MemcpyHtoD>(&*command)) {
        if (pending.empty() && running.empty() && !collectives.outstanding()) {
          memcpy_to_device(copy->address, copy->bytes);
        } else {
          held_copy = *copy;
        }
        continue;
      }
      auto& kernel_launch = std::get<traces::KernelLaunch>(*command);
      const std::size_t order = graph.add_launch(kernel_launch.kernel->info().stream_id);
      if (sampler_ != nullptr && order >= sampler_->launches()) {
        throw Error(
            fmt::format("{}: kernel launch {} was not there when the traces were "
                        "first read for sampling ({} launches)",
                        kernel_launch.kernel->info().source, order + 1, sampler_->launches()));
      }
      auto launch = prepare(*kernel_launch.kernel, order);
      launch->owned = std::move(kernel_launch.kernel);
      pending.push_back(std::move(launch));
      results.emplace_back();
    }
    // Start, in launch order, every pending launch whose dependencies are done.
    for (auto it = pending.begin(); it != pending.end() && running.size() < max_running;) {
      if (!graph.ready((*it)->order)) {
        ++it;
        continue;
      }
      const bool estimated = sampler_ != nullptr && !sampler_->detail((*it)->order);
      if (estimated && !running.empty()) {  // an estimated launch takes the GPU alone
        ++it;
        continue;
      }
      if (running.empty() && kernels_done_ > 0) {
        const Clock core = engine_.clock(ClockDomain::kCore);
        advance_to(engine_.now() + core.edge(config_.simulation().kernel_launch_latency_cycles()));
      }
      if (estimated) {
        const std::size_t order = (*it)->order;
        results[order] = sampler_->estimate(order, (*it)->trace->info(), core_cycle(),
                                            config_.clocks().core_mhz());
        engine_.advance_to(engine_.now() +
                           engine_.clock(ClockDomain::kCore).edge(results[order]->cycles));
        graph.mark_done(order);
        ++kernels_done_;
        if (progress_) progress_(progress_event(nullptr));
        defer_warm(std::move(*it));
        it = pending.erase(it);
        continue;
      }
      // Sampling within a kernel needs it alone on the GPU.
      for (const auto& other : running) {
        if (other->cta_sampler) other->cta_sampler->stop();
      }
      start(**it, cta_sampling_ && running.empty());
      running.push_back(std::move(*it));
      it = pending.erase(it);
    }
    collectives.start_ready(graph, engine_.now());
    if (collectives.finish_ended(graph, engine_.now()) > 0) continue;
    if (port_ != nullptr && (!running.empty() || collectives.outstanding())) {
      // A rank of a multi-GPU run: on to the next sync or known end, where the GPUs learn
      // which collectives end.
      const Picos until = collectives.next_stop();
      const bool idle = running.empty();
      if (idle) {
        idle_until(until);
      } else {
        run_until_one_finishes(running, done, until);
        if (stopped_) break;
      }
      collectives.sync_if_due(engine_.now(), idle);
      finish_done();
      continue;
    }
    if (running.empty()) {
      if (!pending.empty()) {
        throw Error("internal: kernel launches wait on each other with nothing running");
      }
      if (held_copy) {
        const traces::MemcpyHtoD copy = *std::exchange(held_copy, std::nullopt);
        memcpy_to_device(copy.address, copy.bytes);
        continue;
      }
      if (end_of_trace) break;
      continue;
    }
    run_until_one_finishes(running, done);
    if (stopped_) break;
    finish_done();
  }
  progress_ = {};
  stop_ = {};
  // Stopped: the kernels finished so far, in launch order (those still running are dropped).
  std::vector<KernelResult> out;
  out.reserve(results.size());
  for (auto& r : results) {
    if (r) out.push_back(std::move(*r));
  }
  return out;
}

}  // namespace sassim::sim
