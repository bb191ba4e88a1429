#include "ground/unit_calendar.h"

#include <algorithm>
#include <bit>

#include <fmt/format.h>

#include "ground/error.h"

namespace sassim {

void UnitCalendar::add(ClockedUnit* unit) {
  const std::size_t k = units_.size();
  units_.push_back(unit);
  if (k % 64 == 0) {
    stale_->words.emplace_back(0);
    due_.push_back(0);
    group_min_.push_back(kNever);
    kept_.resize(kept_.size() + 64, kNever);
  }
  unit->stale_bits_ = stale_;
  unit->stale_word_ = &stale_->words[k / 64];
  unit->stale_bit_ = std::uint64_t{1} << (k % 64);
  unit->mark_changed();
}

void UnitCalendar::mark_all() {
  for (std::size_t w = 0; w < stale_->words.size(); ++w) {
    const std::size_t n = std::min<std::size_t>(64, units_.size() - w * 64);
    stale_->words[w].store(n == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1,
                           std::memory_order_relaxed);
  }
}

void UnitCalendar::refresh(bool check, Picos now) {
  for (std::size_t w = 0; w < stale_->words.size(); ++w) {
    std::uint64_t bits = stale_->words[w].exchange(0, std::memory_order_relaxed);
    if (check) {
      for (std::size_t k = w * 64; k < std::min(units_.size(), w * 64 + 64); ++k) {
        if ((bits >> (k % 64) & 1) != 0 || kept_[k] == units_[k]->next_event_ps()) continue;
        throw Error(fmt::format(
            "internal: the engine kept {} ps as the next event of {}, which now reports {} ps "
            "(at {} ps): a unit handed it work without waking it",
            kept_[k], units_[k]->name(), units_[k]->next_event_ps(), now));
      }
    }
    if (bits == 0) continue;
    Picos* kept = &kept_[w * 64];
    Picos least = group_min_[w];
    bool rescan = false;  // the group's least event moved later
    while (bits != 0) {
      const auto i = static_cast<std::size_t>(std::countr_zero(bits));
      bits &= bits - 1;
      const Picos was = kept[i];
      kept[i] = units_[w * 64 + i]->next_event_ps();
      if (kept[i] < least) {
        least = kept[i];
      } else if (was == least && kept[i] != was) {
        rescan = true;
      }
    }
    if (rescan) {
      least = kNever;
      for (std::size_t i = 0; i < 64; ++i) least = std::min(least, kept[i]);
    }
    group_min_[w] = least;
  }
}

Picos UnitCalendar::earliest() {
  Picos least = kNever;
  for (Picos m : group_min_) least = std::min(least, m);
  return least;
}

void UnitCalendar::take_due(Picos t) {
  for (std::size_t w = 0; w < group_min_.size(); ++w) {
    if (group_min_[w] > t) continue;
    const Picos* kept = &kept_[w * 64];
    std::uint64_t bits = 0;
    for (std::size_t i = 0; i < 64; ++i) bits |= std::uint64_t{kept[i] <= t} << i;
    due_[w] = bits;
  }
}

void UnitCalendar::clear_due() {
  for (std::uint64_t& w : due_) w = 0;
}

std::size_t UnitCalendar::next_candidate(std::size_t from, std::size_t end) const {
  while (from < end) {
    const std::size_t w = from / 64;
    std::uint64_t bits = due_[w] | stale_->words[w].load(std::memory_order_relaxed);
    bits &= ~std::uint64_t{0} << (from % 64);
    if (bits != 0) return std::min(end, w * 64 + static_cast<std::size_t>(std::countr_zero(bits)));
    from = (w + 1) * 64;
  }
  return end;
}

}  // namespace sassim
