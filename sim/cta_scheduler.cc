#include "sim/cta_scheduler.h"

#include <fmt/format.h>

#include "isa/error.h"

namespace sassim::sim {

CtaScheduler::CtaScheduler(std::vector<Sm*> sms, Clock /*core*/) : sms_(std::move(sms)) {
  for (Sm* sm : sms_) sm->set_retire_listener(this);
}

void CtaScheduler::start_kernel(traces::KernelTrace& kernel, const KernelContext& context) {
  kernel_ = &kernel;
  context_ = &context;
  round_robin_ = 0;
  read_next();
  wake_ = true;
}

void CtaScheduler::read_next() {
  next_ = kernel_->next_cta();
  if (!next_) {
    kernel_ = nullptr;  // every CTA of the kernel has been placed
    return;
  }
  if (next_->warps.size() > context_->cta.warps) {
    throw Error(fmt::format("{}: CTA ({},{},{}) has {} warps, more than the {} of its block size",
                            context_->info->source, next_->id.x, next_->id.y, next_->id.z,
                            next_->warps.size(), context_->cta.warps));
  }
}

void CtaScheduler::cta_retired(std::uint32_t /*sm_id*/) {
  --in_flight_;
  if (next_) wake_ = true;
}

bool CtaScheduler::tick(std::uint64_t cycle, Picos /*now*/) {
  wake_ = false;
  bool placed_any = false;
  const std::size_t n = sms_.size();
  for (std::size_t visited = 0; visited < n && next_; ++visited) {
    Sm& sm = *sms_[round_robin_];
    round_robin_ = (round_robin_ + 1) % n;
    if (!sm.can_accept(context_->cta)) continue;
    ++in_flight_;
    ++ctas_placed_;
    placed_any = true;
    sm.accept(std::move(*next_), *context_, cycle);
    read_next();
  }
  // More CTAs may fit next cycle only if this cycle placed some; otherwise wait for a retirement.
  wake_ = wake_ || (placed_any && next_.has_value());
  return placed_any;
}

std::string CtaScheduler::describe_state() const {
  return fmt::format("{} CTAs placed, {} resident, {}", ctas_placed_, in_flight_,
                     next_ ? "next CTA waiting for room" : "no CTA waiting");
}

void CtaScheduler::report(StatSink& sink) const {
  sink.add(name_ + ".ctas_placed", static_cast<double>(ctas_placed_));
}

}  // namespace sassim::sim
