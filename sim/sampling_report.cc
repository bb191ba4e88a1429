#include "sim/sampling_report.h"

#include <fmt/format.h>

namespace sassim::sim {

void print_sampling_summary(std::FILE* out, const std::vector<KernelResult>& results,
                            double total_ci95_pct) {
  std::uint64_t estimated = 0, within = 0, insts = 0, detailed = 0, cycles = 0;
  double worst = 0;
  for (const KernelResult& r : results) {
    estimated += r.sampled && !r.waves_sampled ? 1 : 0;
    within += r.waves_sampled ? 1 : 0;
    insts += r.warp_insts;
    detailed += r.simulated_warp_insts;
    cycles += r.cycles;
    worst = std::max(worst, r.cycles_ci95_pct);
  }
  fmt::print(out,
             "sampling: {} of {} launches estimated, {} sampled within; {} of {} warp "
             "instructions simulated in detail ({:.1f}x fewer)\n",
             estimated, results.size(), within, detailed, insts,
             detailed > 0 ? static_cast<double>(insts) / static_cast<double>(detailed) : 0.0);
  fmt::print(out, "sampling: total cycles {} +- {:.2f}% (95%); widest launch +- {:.2f}%\n", cycles,
             total_ci95_pct, worst);
}

}  // namespace sassim::sim
