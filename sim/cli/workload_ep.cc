#include "sim/cli/workload_ep.h"

#include <chrono>
#include <set>

#include <fmt/format.h>

#include "ground/error.h"
#include "multigpu/ranks_file.h"
#include "traces/emu/workload/expert_parallel.h"
#include "traces/emu/workload/tensor_parallel.h"
#include "traces/trace_listings.h"

namespace sassim::cli {
namespace {

namespace wl = emu::workload;

std::string experts_of(const wl::LayerOptions& o) {
  const wl::ExpertRange r = wl::local_experts(o);
  return r.count == 1 ? fmt::format("expert {}", r.first)
                      : fmt::format("experts {}-{}", r.first, r.first + r.count - 1);
}

}  // namespace

void print_expert_parallel(const std::vector<wl::LayerPlan>& plans) {
  const wl::LayerPlan& p = plans.front();
  const wl::LayerOptions& o = p.options;
  fmt::print(
      "expert parallel over {} GPUs: each rank runs the attention of {} of the {} sequences "
      "({} token rows) and holds {} of the {} experts (rank 0: {}; rank {}: {}); an alltoall "
      "dispatches the pairs' BF16 rows after {} and one combines their FP32 outputs after {} "
      "(bytes: {} x the most rows a rank sends a rank x hidden x 2 or 4; set from the routing by "
      "the capture)\n",
      o.ep, o.batch, o.batch * o.ep, p.tokens, o.experts / o.ep, o.experts, experts_of(o),
      plans.size() - 1, experts_of(plans.back().options), p.launches[p.collectives[0].after].step,
      p.launches[p.collectives[1].after].step, o.ep);
}

void capture_expert_parallel(std::vector<wl::LayerPlan>& plans,
                             const wl::LayerCaptureOptions& options, const std::string& title,
                             const std::function<void()>& captured) {
  const auto start = std::chrono::steady_clock::now();
  wl::EpCapture got;
  try {
    got = wl::capture_ep_layer(plans, options);
  } catch (const Error&) {
    captured();
    throw;
  }
  captured();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  uint64_t insts = 0;
  for (size_t r = 0; r < plans.size(); ++r) {
    uint64_t rank_insts = 0;
    std::string check;
    for (const wl::LaunchReport& report : got.reports[r]) {
      rank_insts += report.result.warp_insts;
      if (!report.check.empty()) check = " (checked)";
    }
    insts += rank_insts;
    uint64_t received = 0;
    for (const auto& from : got.rows) received += from[r];
    fmt::print("  rank {} ({}): {} launches, {} warp insts{}; its experts take {} rows\n", r,
               experts_of(plans[r].options), got.reports[r].size(), rank_insts, check, received);
  }
  std::string matrix;
  for (const auto& from : got.rows) matrix += fmt::format(" [{}]", fmt::join(from, " "));
  const wl::LayerPlan& first = plans.front();
  fmt::print(
      "routing: rows rank s sends rank d:{}; the largest {} -> alltoall bytes {} (dispatch, "
      "bf16) and {} (combine, fp32)\n",
      matrix, got.largest_rows, first.collectives[0].command.bytes,
      first.collectives[1].command.bytes);
  const std::filesystem::path& out = options.trace_folder;
  fmt::print("captured {} ranks: {} warp instructions in {:.2f} s{}\n", plans.size(), insts,
             seconds, out.empty() ? "; no trace written (-o FOLDER writes one)" : "");
  if (out.empty()) return;
  std::vector<std::string> folders;
  for (size_t r = 0; r < plans.size(); ++r) {
    const std::string name = wl::ep_rank_folder(static_cast<uint32_t>(r));
    std::set<std::string> listings;
    for (const wl::LaunchReport& report : got.reports[r]) listings.insert(report.listing.string());
    traces::store_listings(out / name, {listings.begin(), listings.end()});
    wl::write_collectives(out / name, plans[r]);
    folders.push_back(name);
  }
  multigpu::write_ranks_file(
      out,
      fmt::format("{}, expert parallel over {} GPUs: rank r replays rank-r", title, plans.size()),
      folders);
  fmt::print("ranks: {}/{} ({} rank folders; 2 alltoalls each)\n", out.string(),
             multigpu::kRanksFile, plans.size());
  fmt::print("replay: sassim run {} --system h200x8\n", out.string());
}

}  // namespace sassim::cli
