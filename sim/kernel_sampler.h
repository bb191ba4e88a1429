#pragma once
// Kernel sampling (`sassim run --sample kernels`): launches whose signatures match
// (sim/kernel_signature.h) form a class; the first launches of a class are simulated
// in detail. The first of them warms the caches for the class (it follows other work)
// and is not a sample; once the 95% confidence interval of the mean cycles of the
// samples is within `target_ci_pct` of the mean (after at least `min_detailed`, at most
// `max_detailed` samples), the others are estimated: their cycles are that mean,
// their counters those of its latest detailed launch, and their cycles_ci95_pct the
// 95% prediction interval of one more launch, t(k-1) x s x sqrt(1 + 1/k), as a
// percentage of the mean (k detailed launches with standard deviation s). The GPU
// warms the L2 with an estimated launch's accesses (Gpu::set_sampling_warmup).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "sim/kernel_result.h"
#include "sim/kernel_signature.h"

namespace sassim::sim {

struct SamplingOptions {
  double tolerance = 0.01;  // relative difference of signatures in one class
  std::uint32_t min_detailed = 2;
  std::uint32_t max_detailed = 10;
  double target_ci_pct = 1.0;  // of the class mean's 95% interval, in %
};

// Two-sided 95% quantile of Student's t with `df` degrees of freedom (df >= 1).
double t95(std::uint32_t df);

// The 95% half-width of the total cycles of `results` as a percentage of them: the
// estimates of `kernels` (may be null) and, independent of them and of each other, the
// launches whose CTAs were sampled (KernelResult::waves_sampled).
double total_ci95_pct(const std::vector<KernelResult>& results, const class KernelSampler* kernels);

class KernelSampler {
 public:
  // `launches`: every kernel launch of the workload, in launch order.
  KernelSampler(std::vector<KernelSignature> launches, SamplingOptions options);

  std::size_t launches() const { return class_of_.size(); }
  std::size_t classes() const { return classes_.size(); }
  std::size_t class_of(std::size_t launch) const { return class_of_.at(launch); }
  const KernelSignature& signature(std::size_t launch) const { return signatures_.at(launch); }
  // Whether `launch` is to be simulated in detail given the detailed launches finished
  // so far; true marks it as started in detail.
  bool detail(std::size_t launch);
  // A launch simulated in detail finished.
  void record(std::size_t launch, const KernelResult& result);
  // The estimate of a launch `detail` declined, started at `start_cycle`, at a core
  // clock of `core_mhz`.
  KernelResult estimate(std::size_t launch, const traces::KernelInfo& info,
                        std::uint64_t start_cycle, double core_mhz);
  // The square of the 95% half-width, in cycles, of the estimates' total: each class's
  // mean error is shared by its estimates, their own errors are independent.
  double estimates_variance() const;

 private:
  struct Class {
    std::vector<std::size_t> members;  // launch order
    std::uint32_t started = 0;         // in detail, the warm-up included
    bool warmed = false;               // the first detailed launch finished
    std::vector<double> cycles;        // of the later finished detailed launches (samples)
    std::optional<KernelResult> latest;
    // The estimates made so far: sum of t x s / sqrt(k) and of (t x s)^2.
    double mean_error = 0, own_error_sq = 0;
  };
  struct Moments {
    double mean = 0, sd = 0;
    std::uint32_t k = 0;
  };
  static Moments moments(const Class& c);

  SamplingOptions options_;
  std::vector<KernelSignature> signatures_;
  std::vector<std::size_t> class_of_;
  std::vector<Class> classes_;
};

}  // namespace sassim::sim
