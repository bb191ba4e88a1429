#include "memsys/dram_channel.h"

#include <algorithm>
#include <bit>
#include <cmath>

#include <fmt/format.h>

namespace sassim::memsys {
namespace {

constexpr std::int64_t kMicroBitsPerByte = 8'000'000;

Picos to_ps(double ns) {
  return static_cast<Picos>(std::llround(ns * 1000.0));
}

std::uint64_t mix(std::uint64_t x) {  // splitmix64's finaliser
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace

std::uint32_t refresh_slot(std::uint32_t index, std::uint32_t channels) {
  if (index == 0) return 0;
  std::uint32_t slot = 1;
  for (std::uint32_t k = 1; k < channels; ++k) {
    if (mix(k) < mix(index)) ++slot;
  }
  return slot;
}

DramChannel::DramChannel(std::uint32_t index, const config::DramConfig& config, Clock clock,
                         std::uint32_t sector_bytes, std::uint32_t line_bytes,
                         Link<DramRequest>& in, std::span<Link<DramResponse>* const> to_slices,
                         Doorbell& inbox)
    : name_(fmt::format("gpu.dram.channel[{}]", index)),
      clock_(clock),
      sector_bytes_(sector_bytes),
      latency_ps_(to_ps(config.latency_ns())),
      micro_bits_per_ps_(std::max<std::int64_t>(
          1, std::llround(config.data_rate_mtps() * config.bus_width_bits()))),
      timing_{.rcd = to_ps(config.t_rcd_ns()),
              .rp = to_ps(config.t_rp_ns()),
              .ras = to_ps(config.t_ras_ns()),
              .cl = to_ps(config.t_cl_ns()),
              .wl = to_ps(config.t_wl_ns()),
              .wr = to_ps(config.t_wr_ns()),
              .ccd_s = to_ps(config.t_ccd_s_ns()),
              .ccd_l = to_ps(config.t_ccd_l_ns()),
              .rtw = to_ps(config.t_rtw_ns()),
              .wtr = to_ps(config.t_wtr_ns()),
              .refi = to_ps(config.t_refi_ns()),
              .rfc = to_ps(config.t_rfc_pb_ns() > 0 ? config.t_rfc_pb_ns() : config.t_rfc_ns())},
      per_bank_refresh_(config.t_rfc_pb_ns() > 0),
      map_(config.address_scheme(), config.channels(), config.bank_groups(),
           config.banks_per_group(), std::max<std::uint32_t>(1, config.row_bytes() / line_bytes)),
      refresh_phase_(timing_.refi == 0 ? 0
                     : config.refresh_synchronized()
                         ? timing_.refi
                         : timing_.refi -
                               timing_.refi *
                                   static_cast<Picos>(refresh_slot(index, config.channels())) /
                                   std::max<std::uint32_t>(1, config.channels())),
      capacity_(std::max<std::uint32_t>(1, config.queue_entries())),
      drain_high_(std::max<std::size_t>(1, capacity_ * 7 / 8)),
      drain_low_(capacity_ / 8),
      banks_(map_.banks()),
      group_next_col_(std::max<std::uint32_t>(1, config.bank_groups()), 0),
      in_(in),
      to_slices_(to_slices),
      inbox_(inbox) {
  inbox_.owner = this;
  queue_.reserve(capacity_);
  for (auto* counts : {&queued_[0], &queued_[1], &hits_[0], &hits_[1]}) {
    counts->assign(banks_.size(), 0);
  }
  const std::size_t phases = per_bank_refresh_ ? banks_.size() : 1;
  for (std::size_t b = 0; b < phases; ++b) {  // all-bank: refresh_phase_ itself (may be t_refi)
    const Picos offset = timing_.refi * b / banks_.size();
    phases_.push_back(!per_bank_refresh_ ? refresh_phase_
                                         : (refresh_phase_ + timing_.refi - offset) % timing_.refi);
  }
  epoch_cache_.resize(phases);
  bank_lead_.resize(banks_.size());
}

DramChannel::RefreshPoint DramChannel::refresh_point(Picos t, std::uint32_t bank) const {
  const std::size_t k = per_bank_refresh_ ? bank : 0;
  const Picos shifted = t + phases_[k];
  EpochCache& cache = epoch_cache_[k];
  if (shifted - cache.start >= timing_.refi) {  // outside it (unsigned: before it too)
    cache.epoch = shifted / timing_.refi;
    cache.start = cache.epoch * timing_.refi;
  }
  return RefreshPoint{cache.epoch, shifted - cache.start};
}

Picos DramChannel::after_refresh(Picos t, std::uint32_t bank) const {
  if (timing_.refi == 0) return t;
  const Picos into = refresh_point(t, bank).into;
  return into < timing_.rfc ? t - into + timing_.rfc : t;
}

Picos DramChannel::next_refresh(Picos now) const {
  if (!per_bank_refresh_) return (epoch(now, 0) + 1) * timing_.refi - refresh_phase_;
  Picos next = kNever;
  for (std::uint32_t b = 0; b < banks_.size(); ++b) {
    next = std::min(next, (epoch(now, b) + 1) * timing_.refi - phase(b));
  }
  return next;
}

// Rows opened before the refresh that began their bank's current interval are closed by it.
void DramChannel::refresh_rows(Picos now) {
  if (timing_.refi == 0) return;
  for (std::uint32_t b = 0; b < banks_.size(); ++b) {
    Bank& bank = banks_[b];
    const std::uint64_t current = epoch(now, b);
    if (bank.open && bank.refresh_epoch < current) {
      bank.open = false;
      bank.act_ready_ps =
          std::max(bank.act_ready_ps, current * timing_.refi - phase(b) + timing_.rfc);
      hits_[0][b] = hits_[1][b] = 0;
    }
  }
}

void DramChannel::recount_hits(std::uint32_t bank) {
  hits_[0][bank] = hits_[1][bank] = 0;
  for (const Pending& p : queue_) {
    if (p.at.bank == bank && hits_open_row(p)) ++hits_[p.request.write ? 1 : 0][bank];
  }
}

void DramChannel::open_rows() {
  // Each bank's choice depends on its own requests and state only.
  const std::size_t dir = writes_turn_ ? 1 : 0;
  for (std::uint32_t b = 0; b < banks_.size(); ++b) {
    if (queued_[dir][b] == 0 || hits_[dir][b] != 0) continue;
    auto oldest = std::find_if(queue_.begin(), queue_.end(), [&](const Pending& p) {
      return p.at.bank == b && p.request.write == writes_turn_;
    });
    Pending& p = *oldest;
    Bank& bank = banks_[b];
    Picos act = 0;
    if (bank.open) {
      const Picos pre = after_refresh(std::max(p.request.sent_ps, bank.pre_ready_ps), p.at.bank);
      act = after_refresh(pre + timing_.rp, p.at.bank);
      if (p.opened == Opened::kNone) p.opened = Opened::kConflict;
    } else {
      act = after_refresh(std::max(p.request.sent_ps, bank.act_ready_ps), p.at.bank);
      if (p.opened == Opened::kNone) p.opened = Opened::kMiss;
    }
    bank.open = true;
    bank.row = p.at.row;
    bank.refresh_epoch = epoch(act, p.at.bank);
    bank.col_ready_ps = act + timing_.rcd;
    bank.pre_ready_ps = act + timing_.ras;
    recount_hits(b);
  }
}

// Reads go first; writes wait until they fill drain_high_ of the queue (or no read is
// queued), then drain down to drain_low_.
void DramChannel::choose_direction() {
  if (queued_writes_ >= drain_high_) draining_ = true;
  if (queued_writes_ <= drain_low_) draining_ = false;
  writes_turn_ = queued_writes_ > 0 && (draining_ || queued_writes_ == queue_.size());
}

DramChannel::BusTime DramChannel::data_start(const Pending& p) const {
  const DramRequest& r = p.request;
  Picos col = std::max({r.sent_ps, banks_[p.at.bank].col_ready_ps, next_col_,
                        group_next_col_[p.at.group], r.write ? next_write_col_ : next_read_col_});
  col = after_refresh(col, p.at.bank);
  const BusTime earliest{col + (r.write ? timing_.wl : timing_.cl), 0};
  return earlier(earliest, bus_free_) ? bus_free_ : earliest;
}

std::size_t DramChannel::best() const {
  std::size_t chosen = queue_.size();
  BusTime chosen_start;
  // Candidates of one bank differ only in when they reached the channel, and data_start
  // never decreases with that: one not sent before an older one of its bank cannot win.
  ++best_pass_;
  for (std::size_t i = 0; i < queue_.size(); ++i) {
    const Pending& p = queue_[i];
    if (p.request.write != writes_turn_ || !hits_open_row(p)) continue;
    BankLead& lead = bank_lead_[p.at.bank];
    if (lead.pass == best_pass_ && p.request.sent_ps >= lead.sent_ps) continue;
    lead = BankLead{best_pass_, p.request.sent_ps};
    const BusTime start = data_start(p);
    if (chosen == queue_.size() || earlier(start, chosen_start)) {
      chosen = i;
      chosen_start = start;
    }
  }
  return chosen;
}

void DramChannel::issue(std::size_t index, const BusTime& start, Picos now) {
  const Pending p = queue_[index];
  queue_.erase(queue_.begin() + static_cast<std::ptrdiff_t>(index));
  const DramRequest& r = p.request;
  if (r.write) --queued_writes_;
  --queued_[r.write ? 1 : 0][p.at.bank];
  --hits_[r.write ? 1 : 0][p.at.bank];  // only requests hitting their row issue
  const std::uint64_t bytes =
      std::uint64_t{sector_bytes_} * static_cast<unsigned>(std::popcount(r.sector_mask));
  const std::int64_t end = start.remainder + static_cast<std::int64_t>(bytes) * kMicroBitsPerByte;
  bus_free_ =
      BusTime{start.ps + static_cast<Picos>(end / micro_bits_per_ps_), end % micro_bits_per_ps_};
  const Picos col = column_ps(p, start);
  next_col_ = col + timing_.ccd_s;
  group_next_col_[p.at.group] = col + timing_.ccd_l;
  Bank& bank = banks_[p.at.bank];
  bank.pre_ready_ps = std::max(bank.pre_ready_ps, col);
  if (r.write) {
    const Picos data_end = ceil_ps(bus_free_);
    next_read_col_ = std::max(next_read_col_, data_end + timing_.wtr);
    bank.pre_ready_ps = std::max(bank.pre_ready_ps, data_end + timing_.wr);
    write_bytes_ += bytes;
  } else {
    next_write_col_ = std::max(next_write_col_, col + timing_.rtw);
    read_bytes_ += bytes;
    const DramResponse fill{r.line, r.sector_mask, r.tag};
    const Picos ready = ceil_ps(start) + latency_ps_;
    if (tiled_) {
      held_fills_.push_back(HeldFill{r.slice, fill, now, ready});
    } else {
      to_slices_[r.slice]->push(fill, now, ready);
    }
  }
  switch (p.opened) {
    case Opened::kNone:
      ++row_hits_;
      break;
    case Opened::kMiss:
      ++row_misses_;
      break;
    case Opened::kConflict:
      ++row_conflicts_;
      break;
  }
}

void DramChannel::publish() {
  for (const HeldFill& h : held_fills_) to_slices_[h.slice]->push(h.fill, h.now, h.ready);
  held_fills_.clear();
}

bool DramChannel::tick(std::uint64_t /*cycle*/, Picos now) {
  bool progress = false;
  while (in_.ready(now) && queue_.size() < capacity_) {
    const DramRequest r = in_.pop();
    queue_.push_back(Pending{r, map_.locate(r.line), Opened::kNone});
    if (r.write) ++queued_writes_;
    const Pending& p = queue_.back();
    ++queued_[r.write ? 1 : 0][p.at.bank];
    if (hits_open_row(p)) ++hits_[r.write ? 1 : 0][p.at.bank];
    progress = true;
  }
  refresh_rows(now);
  bool blocked = false;
  Picos next = kNever;
  while (!queue_.empty()) {
    choose_direction();
    open_rows();
    const std::size_t i = best();
    const BusTime start = data_start(queue_[i]);
    const Picos col = column_ps(queue_[i], start);
    if (col > now) {
      next = col;
      break;
    }
    if (!queue_[i].request.write && to_slices_[queue_[i].request.slice]->full()) {
      blocked = true;
      break;
    }
    issue(i, start, now);
    progress = true;
  }
  if (blocked) next = now + clock_.period_ps;
  if (!in_.empty() && queue_.size() < capacity_) next = std::min(next, in_.front_ready_ps());
  if (timing_.refi != 0 && !queue_.empty()) {
    next = std::min(next, next_refresh(now));  // rows close
  }
  inbox_.reset();
  next_ps_ = std::max(next, now + 1);
  if (next == kNever) next_ps_ = kNever;
  return progress;
}

std::uint64_t DramChannel::busy_cycles() const {
  const double per_clock =
      static_cast<double>(micro_bits_per_ps_) * static_cast<double>(clock_.period_ps);
  const double bits =
      static_cast<double>(read_bytes_ + write_bytes_) * static_cast<double>(kMicroBitsPerByte);
  return static_cast<std::uint64_t>(std::ceil(bits / per_clock));
}

std::string DramChannel::describe_state() const {
  std::string head = "empty";
  if (!queue_.empty()) {
    const DramRequest& r = queue_.front().request;
    head = fmt::format("{} line {:#x} (bank {}, row {}) from slice {} sent at {} ps",
                       r.write ? "write" : "read", r.line, queue_.front().at.bank,
                       queue_.front().at.row, r.slice, r.sent_ps);
  }
  return fmt::format("queue {}/{} (link {}/{}), oldest: {}; bus free at {} ps", queue_.size(),
                     capacity_, in_.size(), in_.capacity(), head, ceil_ps(bus_free_));
}

void DramChannel::report(StatSink& sink) const {
  sink.add_counter(name_, "read_bytes", static_cast<double>(read_bytes_));
  sink.add_counter(name_, "write_bytes", static_cast<double>(write_bytes_));
  sink.add_counter(name_, "busy_cycles", static_cast<double>(busy_cycles()));
  sink.add_counter(name_, "row_hits", static_cast<double>(row_hits_));
  sink.add_counter(name_, "row_misses", static_cast<double>(row_misses_));
  sink.add_counter(name_, "row_conflicts", static_cast<double>(row_conflicts_));
}

}  // namespace sassim::memsys
