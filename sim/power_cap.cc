#include "sim/power_cap.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace sassim::sim {

double peak_window_power_w(const std::vector<KernelResult>& results, double core_mhz,
                           double window_s) {
  struct Span {
    double start = 0, end = 0, joules = 0;
  };
  std::vector<Span> spans;
  const double hz = core_mhz * 1e6;
  for (const KernelResult& r : results) {
    if (!r.energy.modelled || r.cycles == 0) continue;
    const double start = static_cast<double>(r.start_cycle) / hz;
    spans.push_back({start, start + static_cast<double>(r.cycles) / hz, r.energy.total_j});
  }
  if (spans.empty()) return 0;
  double first = spans.front().start, last = spans.front().end, total = 0;
  for (const Span& s : spans) {
    first = std::min(first, s.start);
    last = std::max(last, s.end);
    total += s.joules;
  }
  if (window_s <= 0 || window_s >= last - first) return total / (last - first);
  // The energy in [a, a + window_s] is piecewise linear in a, so its largest value comes
  // with a window edge on a kernel's start or end.
  auto energy_in = [&](double a) {
    const double b = a + window_s;
    double j = 0;
    for (const Span& s : spans) {
      const double overlap = std::min(b, s.end) - std::max(a, s.start);
      if (overlap > 0) j += s.joules * overlap / (s.end - s.start);
    }
    return j;
  };
  double best = 0;
  for (const Span& s : spans) {
    for (double a : {s.start, s.end - window_s, s.start - window_s, s.end}) {
      best = std::max(best, energy_in(std::clamp(a, first, last - window_s)));
    }
  }
  return best / window_s;
}

PowerCapResult find_capped_clock(const PowerCapSearch& search,
                                 const std::function<double(double)>& power_at) {
  // Clocks of the grid by index: start_mhz - k x step_mhz, k = 0 .. lowest.
  const auto lowest = static_cast<std::int64_t>(
      std::max(0.0, std::floor((search.start_mhz - search.min_mhz) / search.step_mhz + 1e-9)));
  auto mhz = [&](std::int64_t k) {
    return search.start_mhz - static_cast<double>(k) * search.step_mhz;
  };
  auto index_of = [&](double f) { return (search.start_mhz - f) / search.step_mhz; };
  std::map<std::int64_t, double> power;  // the grid points simulated
  auto at = [&](std::int64_t k) {
    auto it = power.find(k);
    if (it == power.end()) it = power.emplace(k, power_at(mhz(k))).first;
    return it->second;
  };
  auto runs = [&] { return static_cast<std::uint32_t>(power.size()); };
  // The bracket: `over` the highest clock (lowest index) known to draw more than the
  // limit, `within` the lowest index known to draw no more (-1: none yet).
  std::int64_t over = 0, within = -1;
  double p_over = at(0), p_within = 0;
  if (p_over <= search.limit_w) return {mhz(0), p_over, true, runs()};
  if (lowest == 0) return {mhz(0), p_over, false, runs()};  // no lower clock on the grid
  // First guess: where the power would meet the limit if it fell in proportion to the
  // clock (it falls faster, the voltage falling too); then, if that still draws too
  // much, the floor.
  std::int64_t k = std::clamp<std::int64_t>(
      static_cast<std::int64_t>(std::ceil(index_of(mhz(0) * search.limit_w / p_over) - 1e-9)), 1,
      lowest);
  // Regula falsi on the power above the limit, with the Illinois rule: when the same
  // end of the bracket stays twice, its value counts half, so that the bracket closes
  // from both sides.
  double g_over = p_over - search.limit_w, g_within = 0;
  int last_side = 0;  // +1: the previous clock drew too much, -1: within, 0: none
  while (runs() < search.max_runs) {
    const double p = at(k);
    if (p <= search.limit_w) {
      if (last_side < 0) g_over /= 2;
      within = k;
      p_within = p;
      g_within = p - search.limit_w;
      last_side = -1;
    } else {
      if (last_side > 0 && within >= 0) g_within /= 2;
      over = k;
      p_over = p;
      g_over = p - search.limit_w;
      last_side = 1;
    }
    if (within < 0) {
      if (over == lowest) return {mhz(lowest), p_over, false, runs()};  // the floor draws too much
      k = lowest;
      continue;
    }
    if (within - over <= 1) break;
    const double f = mhz(over) + (mhz(within) - mhz(over)) * g_over / (g_over - g_within);
    k = std::clamp<std::int64_t>(std::llround(index_of(f)), over + 1, within - 1);
  }
  if (within < 0) return {mhz(over), p_over, false, runs()};
  return {mhz(within), p_within, true, runs()};
}

CappedRun run_power_capped(
    const config::GpuConfig& config,
    const std::function<std::vector<KernelResult>(const config::GpuConfig&)>& simulate) {
  const config::EnergyConfig& e = config.energy();
  const double window_s = e.power_cap_window_us() * 1e-6;
  CappedRun best;  // the highest clock within the limit, else the lowest tried
  bool have_within = false;
  auto power_at = [&](double mhz) {
    config::GpuConfig c = config;
    c.mutable_clocks()->set_core_mhz(mhz);
    std::vector<KernelResult> results = simulate(c);
    const double p = peak_window_power_w(results, mhz, window_s);
    const bool within = p <= e.board_power_limit_w();
    const double kept = best.config.has_clocks() ? best.config.clocks().core_mhz() : 0;
    if ((within && (!have_within || mhz > kept)) ||
        (!within && !have_within && (kept == 0 || mhz < kept))) {
      best.config = std::move(c);
      best.results = std::move(results);
      have_within = have_within || within;
    }
    return p;
  };
  double first = -1;
  best.cap = find_capped_clock({.limit_w = e.board_power_limit_w(),
                                .start_mhz = config.clocks().core_mhz(),
                                .step_mhz = e.power_cap_clock_step_mhz(),
                                .min_mhz = e.power_cap_min_core_mhz()},
                               [&](double mhz) {
                                 const double p = power_at(mhz);
                                 if (first < 0) first = p;
                                 return p;
                               });
  best.uncapped_power_w = first;
  return best;
}

}  // namespace sassim::sim
