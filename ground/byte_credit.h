#pragma once
// Bandwidth as a byte credit (a deficit counter): the credit grows by a fixed amount
// per time unit up to one unit's worth; a transfer may start whenever the credit is
// positive and takes its whole size at once, leaving a deficit that later units pay
// back. Over time the rate is exact even when a transfer is not a multiple of the
// per-unit amount, and a transfer larger than one unit's worth occupies the resource
// for as many units as it needs. The time unit is the caller's (cycles or picoseconds).
#include <algorithm>
#include <cstdint>

namespace sassim {

class ByteCredit {
 public:
  // per_unit: credit gained per time unit; cap: most credit kept (at least per_unit).
  explicit ByteCredit(std::int64_t per_unit = 1, std::int64_t cap = 0)
      : per_unit_(per_unit), cap_(std::max(cap, per_unit)), credit_(cap_) {}

  // Brings the credit up to time unit `now` (never moves backwards).
  void refill(std::uint64_t now) {
    if (now <= last_) return;
    std::uint64_t elapsed = now - last_;
    last_ = now;
    auto max_gain = static_cast<std::uint64_t>(cap_ - std::min(credit_, cap_));
    std::uint64_t per = static_cast<std::uint64_t>(per_unit_);
    // Saturate: long idle periods refill to the cap without overflowing.
    if (elapsed >= max_gain / per + 1) {
      credit_ = cap_;
    } else {
      credit_ = std::min(cap_, credit_ + static_cast<std::int64_t>(elapsed * per));
    }
  }
  bool available() const { return credit_ > 0; }
  // Takes `amount`; returns how many further time units the transfer occupies beyond
  // the current one (0 when the credit covered it).
  std::uint64_t consume(std::int64_t amount) {
    credit_ -= amount;
    consumed_ += amount;
    if (credit_ >= 0) return 0;
    return static_cast<std::uint64_t>((-credit_ + per_unit_ - 1) / per_unit_);
  }
  // First time unit at which available() holds (the last refill time when it holds now).
  std::uint64_t next_available() const {
    if (credit_ > 0) return last_;
    return last_ + static_cast<std::uint64_t>(-credit_ / per_unit_) + 1;
  }
  std::int64_t credit() const { return credit_; }
  std::int64_t per_unit() const { return per_unit_; }
  // Everything taken since construction (the resource's busy bytes, for its use
  // against per_unit x elapsed time units).
  std::int64_t consumed() const { return consumed_; }

 private:
  std::int64_t per_unit_;
  std::int64_t cap_;
  std::int64_t credit_;
  std::uint64_t last_ = 0;
  std::int64_t consumed_ = 0;
};

}  // namespace sassim
