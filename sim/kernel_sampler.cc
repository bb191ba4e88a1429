#include "sim/kernel_sampler.h"

#include <cmath>
#include <numeric>

#include "ground/error.h"

namespace sassim::sim {

double t95(std::uint32_t df) {
  static constexpr double kTable[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306,
                                      2.262,  2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120,
                                      2.110,  2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
                                      2.060,  2.056, 2.052, 2.048, 2.045, 2.042};
  if (df == 0) throw Error("internal: t95 needs at least one degree of freedom");
  if (df <= std::size(kTable)) return kTable[df - 1];
  if (df <= 60) return 2.000;
  return 1.960;
}

KernelSampler::KernelSampler(std::vector<KernelSignature> launches, SamplingOptions options)
    : options_(options), signatures_(std::move(launches)) {
  if (options_.min_detailed < 2) options_.min_detailed = 2;
  options_.max_detailed = std::max(options_.max_detailed, options_.min_detailed);
  for (std::size_t i = 0; i < signatures_.size(); ++i) {
    std::size_t c = 0;
    while (c < classes_.size() &&
           !similar(signatures_[classes_[c].members.front()], signatures_[i], options_.tolerance)) {
      ++c;
    }
    if (c == classes_.size()) classes_.emplace_back();
    classes_[c].members.push_back(i);
    class_of_.push_back(c);
  }
}

KernelSampler::Moments KernelSampler::moments(const Class& c) {
  Moments m;
  m.k = static_cast<std::uint32_t>(c.cycles.size());
  if (m.k == 0) return m;
  m.mean = std::accumulate(c.cycles.begin(), c.cycles.end(), 0.0) / m.k;
  if (m.k < 2) return m;
  double ss = 0;
  for (double x : c.cycles) ss += (x - m.mean) * (x - m.mean);
  m.sd = std::sqrt(ss / (m.k - 1));
  return m;
}

bool KernelSampler::detail(std::size_t launch) {
  Class& c = classes_[class_of(launch)];
  const Moments m = moments(c);
  bool need = !c.warmed || m.k < options_.min_detailed;
  if (!need && c.started < options_.max_detailed + 1) {
    const double half = t95(m.k - 1) * m.sd / std::sqrt(static_cast<double>(m.k));
    need = half > options_.target_ci_pct / 100.0 * m.mean;
  }
  if (need) ++c.started;
  return need;
}

void KernelSampler::record(std::size_t launch, const KernelResult& result) {
  Class& c = classes_[class_of(launch)];
  c.latest = result;
  if (!c.warmed) {  // the class's first launch ran after other work: not a sample
    c.warmed = true;
    return;
  }
  c.cycles.push_back(static_cast<double>(result.cycles));
}

KernelResult KernelSampler::estimate(std::size_t launch, const traces::KernelInfo& info,
                                     std::uint64_t start_cycle, double core_mhz) {
  Class& c = classes_[class_of(launch)];
  const Moments m = moments(c);
  if (!c.latest || m.k < 2) throw Error("internal: a launch estimated before its class ran");
  const KernelResult& rep = *c.latest;
  KernelResult r = rep;
  r.info = info;
  r.start_cycle = start_cycle;
  r.cycles = std::max<std::uint64_t>(static_cast<std::uint64_t>(std::llround(m.mean)), 1);
  r.warp_insts = signatures_[launch].warp_insts;
  const double scale = static_cast<double>(rep.cycles) / static_cast<double>(r.cycles);
  r.ipc = static_cast<double>(r.warp_insts) / static_cast<double>(r.cycles);
  r.seconds = static_cast<double>(r.cycles) / (core_mhz * 1e6);
  r.dram_gbps = r.seconds > 0 ? r.dram_bytes / r.seconds / 1e9 : 0;
  r.tensor_tflops = rep.tensor_tflops * scale;
  r.issue_slots =
      static_cast<std::uint64_t>(std::llround(static_cast<double>(rep.issue_slots) / scale));
  r.sol = rescaled(rep.sol, scale,
                   r.issue_slots == 0 ? 0.0
                                      : 100.0 * static_cast<double>(r.warp_insts) /
                                            static_cast<double>(r.issue_slots));
  r.host_seconds = 0;
  r.sampled = true;
  r.waves_sampled = false;
  r.simulated_warp_insts = 0;
  r.energy =
      rep.energy.with_duration(static_cast<double>(r.cycles) / static_cast<double>(rep.cycles));
  const double t = t95(m.k - 1);
  r.cycles_ci95_pct = m.mean > 0 ? 100.0 * t * m.sd * std::sqrt(1.0 + 1.0 / m.k) / m.mean : 0;
  c.mean_error += t * m.sd / std::sqrt(static_cast<double>(m.k));
  c.own_error_sq += t * m.sd * t * m.sd;
  return r;
}

double KernelSampler::estimates_variance() const {
  double var = 0;
  for (const Class& c : classes_) var += c.mean_error * c.mean_error + c.own_error_sq;
  return var;
}

double total_ci95_pct(const std::vector<KernelResult>& results, const KernelSampler* kernels) {
  double total = 0, var = kernels != nullptr ? kernels->estimates_variance() : 0.0;
  for (const KernelResult& r : results) {
    total += static_cast<double>(r.cycles);
    if (r.waves_sampled) {
      const double half = r.cycles_ci95_pct / 100.0 * static_cast<double>(r.cycles);
      var += half * half;
    }
  }
  return total > 0 ? 100.0 * std::sqrt(var) / total : 0;
}

}  // namespace sassim::sim
