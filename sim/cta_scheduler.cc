#include "sim/cta_scheduler.h"

#include <algorithm>

#include <fmt/format.h>

#include "ground/error.h"
#include "sim/control_bits.h"
#include "sim/cta_sampler.h"
#include "sim/register_file.h"

namespace sassim::sim {

CtaScheduler::CtaScheduler(std::vector<Sm*> sms, Clock core, std::uint32_t dispatch_interval_cycles)
    : sms_(std::move(sms)),
      clock_(core),
      interval_(dispatch_interval_cycles),
      taken_(sms_.size(), 0) {
  for (Sm* sm : sms_) sm->set_retire_listener(this);
  set_clusters(GpcLayout(static_cast<std::uint32_t>(sms_.size())), 1);
}

void CtaScheduler::set_clusters(GpcLayout layout, std::uint32_t barrier_latency_cycles) {
  if (layout.num_sms() != sms_.size()) {
    throw Error(
        fmt::format("internal: a GPC layout of {} SMs for {} SMs", layout.num_sms(), sms_.size()));
  }
  gpcs_ = std::move(layout);
  cluster_barrier_latency_ = barrier_latency_cycles;
  gpc_round_robin_ = 0;
  sm_in_gpc_.assign(gpcs_.num_gpcs(), 0);
}

void CtaScheduler::start_kernel(traces::KernelTrace& kernel, const KernelContext& context,
                                Picos not_before) {
  if (not_before == 0) {
    begin_placing(kernel, context);
    return;
  }
  const auto later = std::find_if(launching_.begin(), launching_.end(),
                                  [&](const Launching& l) { return l.ready > not_before; });
  launching_.insert(later, Launching{&kernel, &context, not_before});
}

void CtaScheduler::begin_placing(traces::KernelTrace& kernel, const KernelContext& context) {
  auto running = std::make_unique<Running>();
  running->trace = &kernel;
  running->context = &context;
  if (kernel.info().cluster.count() > 1) {
    running->clusters = std::make_unique<ClusterQueue>(kernel.info());
  }
  read_next(*running);
  // A kernel starting alone spreads from SM 0, as after a fresh launch.
  if (kernels_.empty()) round_robin_ = 0;
  kernels_.push_back(std::move(running));
  wake_ = true;
}

CtaScheduler::Running* CtaScheduler::find(const KernelContext& context) {
  for (auto& k : kernels_) {
    if (k->context == &context) return k.get();
  }
  return nullptr;
}

const CtaScheduler::Running* CtaScheduler::find(const KernelContext& context) const {
  for (const auto& k : kernels_) {
    if (k->context == &context) return k.get();
  }
  return nullptr;
}

bool CtaScheduler::kernel_done(const KernelContext& context) const {
  for (const Launching& l : launching_) {
    if (l.context == &context) return false;
  }
  const Running* k = find(context);
  return k == nullptr || (!k->waiting() && k->in_flight == 0);
}

void CtaScheduler::remove_kernel(const KernelContext& context) {
  std::erase_if(kernels_, [&](const auto& k) { return k->context == &context; });
}

std::optional<traces::CtaTrace> CtaScheduler::read_cta(Running& k) {
  std::optional<traces::CtaTrace> cta = k.trace->next_cta();
  if (k.context->control != nullptr) k.context->control->extend(*k.trace);
  if (k.context->register_reads != nullptr) k.context->register_reads->extend(k.trace->statics());
  if (cta && cta->warps.size() > k.context->cta.warps) {
    const traces::KernelInfo& info = *k.context->info;
    throw Error(fmt::format("{}: CTA ({},{},{}) has {} warps, more than the {} of its block size",
                            info.source, cta->id.x, cta->id.y, cta->id.z, cta->warps.size(),
                            k.context->cta.warps));
  }
  return cta;
}

void CtaScheduler::read_next(Running& k) {
  if (!k.clusters) {
    // Sampling within the kernel: CTAs it skips are read, warm the caches and are
    // dropped (they retire at once, for progress).
    if (CtaSampler* sampler = k.context->cta_sampler) {
      while (sampler->skip_next()) {
        std::optional<traces::CtaTrace> cta = read_cta(k);
        if (!cta) break;
        sampler->skipped(cta->instruction_count());
        sampler->warm(std::move(*cta));
        if (k.context->progress != nullptr) {
          k.context->progress->ctas_retired.fetch_add(1, std::memory_order_relaxed);
        }
      }
    }
    k.next = read_cta(k);
    return;
  }
  k.next_cluster.reset();
  while (!k.clusters->has_ready()) {
    std::optional<traces::CtaTrace> cta = read_cta(k);
    if (!cta) {
      k.clusters->check_all_complete();
      return;
    }
    k.clusters->add(std::move(*cta));
  }
  k.next_cluster = k.clusters->take();
}

bool CtaScheduler::any_waiting() const {
  return std::any_of(kernels_.begin(), kernels_.end(), [](const auto& k) { return k->waiting(); });
}

bool CtaScheduler::any_cta_waiting() const {
  return std::any_of(kernels_.begin(), kernels_.end(),
                     [](const auto& k) { return k->next.has_value(); });
}

void CtaScheduler::cta_retired(std::uint32_t /*sm_id*/, const KernelContext& kernel) {
  const std::lock_guard lock(retire_mutex_);
  mark_changed();
  if (Running* k = find(kernel)) --k->in_flight;
  if (kernel.progress != nullptr)
    kernel.progress->ctas_retired.fetch_add(1, std::memory_order_relaxed);
  if (any_waiting()) wake_ = true;
}

bool CtaScheduler::tick(std::uint64_t cycle, Picos now) {
  while (!launching_.empty() && launching_.front().ready <= now) {
    begin_placing(*launching_.front().trace, *launching_.front().context);
    launching_.erase(launching_.begin());
  }
  if (interval_ != 0 && cycle < next_dispatch_) return false;  // wake_ stays set
  wake_ = false;
  bool placed_any = place_clusters(cycle);
  if (placed_any && interval_ != 0) next_dispatch_ = cycle + interval_;
  const std::size_t n = placed_any && interval_ != 0 ? 0 : sms_.size();
  for (std::size_t visited = 0; visited < n && any_cta_waiting(); ++visited) {
    Sm& sm = *sms_[round_robin_];
    const bool is_taken = taken_[round_robin_] != 0;
    round_robin_ = (round_robin_ + 1) % n;
    if (is_taken) continue;
    for (auto& k : kernels_) {
      if (!k->next || !sm.can_accept(k->context->cta)) continue;
      ++k->in_flight;
      ++ctas_placed_;
      placed_any = true;
      if (observer_ != nullptr) observer_->placed(sm.id(), k->next->id, {}, cycle);
      sm.accept(std::move(*k->next), *k->context, cycle);
      read_next(*k);
      break;  // one CTA per SM per cycle
    }
    if (placed_any && interval_ != 0) {
      next_dispatch_ = cycle + interval_;
      break;  // one CTA per dispatch interval on the whole GPU
    }
  }
  // More CTAs may fit next cycle only if this cycle placed some; otherwise wait for a retirement.
  wake_ = wake_ || (placed_any && any_waiting());
  return placed_any;
}

std::vector<std::uint32_t> CtaScheduler::take_sms(std::uint32_t count) {
  std::vector<std::uint32_t> out;
  for (const bool empty_only : {true, false}) {
    for (std::size_t i = sms_.size(); i-- > 0 && out.size() < count;) {
      if (taken_[i] != 0 || (empty_only && sms_[i]->resident_ctas() != 0)) continue;
      taken_[i] = 1;
      out.push_back(static_cast<std::uint32_t>(i));
    }
  }
  return out;
}

void CtaScheduler::release_sms(const std::vector<std::uint32_t>& sms) {
  for (std::uint32_t sm : sms) taken_.at(sm) = 0;
  if (!sms.empty() && any_waiting()) {
    wake_ = true;
    mark_changed();
  }
}

std::string CtaScheduler::describe_state() const {
  std::string out = fmt::format("{} CTAs placed; {} kernels running; {} SMs taken", ctas_placed_,
                                kernels_.size(), std::count(taken_.begin(), taken_.end(), 1));
  if (!launching_.empty()) {
    out += fmt::format("; {} kernels launching (first CTA at {} ps)", launching_.size(),
                       launching_.front().ready);
  }
  for (const auto& k : kernels_) {
    out += fmt::format("; kernel {}: {} CTAs resident, {}", k->context->info->id, k->in_flight,
                       k->next           ? "next CTA waiting for room"
                       : k->next_cluster ? "next cluster waiting for room on one GPC"
                                         : "all CTAs placed");
  }
  return out;
}

void CtaScheduler::report(StatSink& sink) const {
  sink.add_counter(name_, "ctas_placed", static_cast<double>(ctas_placed_));
}

}  // namespace sassim::sim
