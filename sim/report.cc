#include "sim/report.h"

#include <string>

#include <fmt/format.h>

#include "ground/display_name.h"
#include "isa/opcode.h"
#include "sim/cpi_report.h"
#include "sim/energy_report.h"
#include "sim/sm.h"
#include "sim/sol_report.h"

namespace sassim::sim {
namespace {

std::string short_name(const std::string& name) {
  return kernel_display_name(name, 36);
}

std::string rate(double hits, double accesses) {
  return accesses == 0 ? std::string("-") : fmt::format("{:.1f}%", 100.0 * hits / accesses);
}

// Tensor-core use of the kernels that issued matrix instructions: pipe utilisation and
// achieved TFLOP/s, in total and per operand type.
void print_tensor_summary(std::FILE* out, const std::vector<KernelResult>& results) {
  bool header = false;
  for (const KernelResult& r : results) {
    if (r.tensor_tflops == 0) continue;
    if (!header) {
      fmt::print(out, "{:>4}  {:<36} {:>11} {:>9}  {}\n", "id", "tensor cores", "pipe busy",
                 "TFLOP/s", "TFLOP/s by operand type");
      header = true;
    }
    std::string by_type;
    for (std::size_t t = 1; t < kNumTensorTypes; ++t) {
      const std::string_view type = isa::mma_type_name(static_cast<isa::MmaType>(t));
      const double flops = r.stats.sum("gpu.sm[", fmt::format(".tensor_flops.{}", type));
      if (flops != 0) by_type += fmt::format(" {} {:.1f}", type, flops / r.seconds / 1e12);
    }
    fmt::print(out, "{:>4}  {:<36} {:>10.1f}% {:>9.1f} {}\n", r.info.id, short_name(r.info.name),
               100 * r.tensor_utilisation, r.tensor_tflops, by_type);
  }
}

// The notes after the table: tensor use, the simulation rate, the CPI stack.
void print_notes(std::FILE* out, const std::vector<KernelResult>& results, const RunTotal& t) {
  const double host = t.host_seconds;
  print_tensor_summary(out, results);
  print_energy_summary(out, results);
  fmt::print(
      out,
      "simulated {} warp instructions in {:.3f} s ({:.0f} warp instructions/s, {:.0f} cycles/s)\n",
      t.warp_insts, host, host > 0 ? static_cast<double>(t.warp_insts) / host : 0.0,
      host > 0 ? static_cast<double>(t.cycles) / host : 0.0);
  print_cycle_breakdown(out, results);
  print_speed_of_light(out, results);
}

}  // namespace

RunTotal run_total(const std::vector<KernelResult>& results) {
  RunTotal t;
  t.kernels = results.size();
  for (const KernelResult& r : results) {
    const double l1_acc = r.stats.sum("gpu.sm[", ".l1.sector_accesses");
    const double l2_acc = r.stats.sum("gpu.l2.slice[", ".sector_accesses");
    t.cycles += r.cycles;
    t.warp_insts += r.warp_insts;
    t.l1_hits += r.l1_hit_rate * l1_acc;
    t.l1_accesses += l1_acc;
    t.l2_hits += r.l2_hit_rate * l2_acc;
    t.l2_accesses += l2_acc;
    t.dram_bytes += r.dram_bytes;
    t.host_seconds += r.host_seconds;
  }
  t.ipc = t.cycles == 0 ? 0.0 : static_cast<double>(t.warp_insts) / static_cast<double>(t.cycles);
  t.l1_hit_rate = t.l1_accesses == 0 ? 0.0 : t.l1_hits / t.l1_accesses;
  t.l2_hit_rate = t.l2_accesses == 0 ? 0.0 : t.l2_hits / t.l2_accesses;
  return t;
}

void print_summary(std::FILE* out, const std::vector<KernelResult>& results) {
  fmt::print(out, "{:>4}  {:<36} {:>12} {:>12} {:>7} {:>7} {:>7} {:>11} {:>9} {:>11}\n", "id",
             "kernel", "cycles", "warp insts", "IPC", "L1 hit", "L2 hit", "DRAM bytes", "DRAM GB/s",
             "sim inst/s");
  for (const KernelResult& r : results) {
    const double r_l1_acc = r.stats.sum("gpu.sm[", ".l1.sector_accesses");
    const double r_l2_acc = r.stats.sum("gpu.l2.slice[", ".sector_accesses");
    const double speed =
        r.host_seconds > 0 ? static_cast<double>(r.warp_insts) / r.host_seconds : 0.0;
    fmt::print(out,
               "{:>4}  {:<36} {:>12} {:>12} {:>7.3f} {:>7} {:>7} {:>11.0f} {:>9.1f} {:>11.0f}\n",
               r.info.id, short_name(r.info.name), r.cycles, r.warp_insts, r.ipc,
               rate(r.l1_hit_rate * r_l1_acc, r_l1_acc), rate(r.l2_hit_rate * r_l2_acc, r_l2_acc),
               r.dram_bytes, r.dram_gbps, speed);
  }
  const RunTotal t = run_total(results);
  const double host = t.host_seconds;
  fmt::print(out, "{:>4}  {:<36} {:>12} {:>12} {:>7.3f} {:>7} {:>7} {:>11.0f} {:>9} {:>11.0f}\n",
             "", fmt::format("total ({} kernels)", results.size()), t.cycles, t.warp_insts, t.ipc,
             rate(t.l1_hits, t.l1_accesses), rate(t.l2_hits, t.l2_accesses), t.dram_bytes, "",
             host > 0 ? static_cast<double>(t.warp_insts) / host : 0.0);
  print_notes(out, results, t);
}

void print_summary_notes(std::FILE* out, const std::vector<KernelResult>& results) {
  print_notes(out, results, run_total(results));
}

}  // namespace sassim::sim
