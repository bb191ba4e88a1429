// plan_system_run (multigpu/system_run.h): ranks, players, and every collective matched
// across its communicator and simulated on the system.
#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <variant>

#include <fmt/format.h>

#include "ground/error.h"
#include "multigpu/ranks_file.h"
#include "multigpu/system_run.h"
#include "traces/kernelslist.h"

namespace sassim::multigpu {
namespace {

template <typename T>
T parse_name(std::optional<T> parsed, const traces::CollectiveCommand& c, std::string_view key,
             std::string_view value, std::string_view expected) {
  if (!parsed) throw Error(fmt::format("{}: {} '{}': expected {}", c.source, key, value, expected));
  return *parsed;
}

system::CollectiveCall to_call(const traces::CollectiveCommand& c, uint32_t run_ranks) {
  system::CollectiveCall call;
  call.op = parse_name(system::parse_op(c.op), c, "operation", c.op,
                       "all_reduce, all_gather, reduce_scatter, alltoall, sendrecv or send");
  call.type = parse_name(system::parse_data_type(c.type), c, "type", c.type, "bf16, fp16 or fp32");
  call.algorithm = parse_name(system::parse_algorithm(c.algorithm), c, "algorithm", c.algorithm,
                              "auto, ring, tree, nvls or p2p");
  call.protocol = parse_name(system::parse_protocol(c.protocol), c, "protocol", c.protocol,
                             "auto, ll, ll128 or simple");
  call.bytes = c.bytes;
  call.ranks = c.ranks;
  if (call.ranks.empty()) {
    for (uint32_t r = 0; r < run_ranks; ++r) call.ranks.push_back(r);
  }
  for (uint32_t r : call.ranks) {
    if (r >= run_ranks) {
      throw Error(fmt::format("{}: rank {} of ranks={}: the run has {} ranks (ranks.g)", c.source,
                              r, traces::format_ranks(c.ranks), run_ranks));
    }
  }
  return call;
}

bool same_call(const system::CollectiveCall& a, const system::CollectiveCall& b) {
  return a.op == b.op && a.bytes == b.bytes && a.type == b.type && a.algorithm == b.algorithm &&
         a.protocol == b.protocol;
}

// The collectives of one trace folder, in trace order.
std::vector<traces::CollectiveCommand> collectives_of(const std::filesystem::path& folder) {
  std::vector<traces::CollectiveCommand> out;
  for (traces::ListEntry& entry : traces::read_kernelslist(folder / "kernelslist.g")) {
    if (auto* c = std::get_if<traces::CollectiveCommand>(&entry)) out.push_back(std::move(*c));
  }
  return out;
}

}  // namespace

SystemPlan plan_system_run(const std::filesystem::path& trace, const system::SystemModel& model) {
  SystemPlan plan;
  plan.charge_gpu_side = model.config().gpu_side().charge();
  plan.trace = trace;
  plan.rank_folders = read_ranks_file(trace);
  const auto run_ranks = static_cast<uint32_t>(plan.rank_folders.size());
  if (run_ranks > model.gpu_count()) {
    throw Error(fmt::format("{}: {} ranks, but the system '{}' has {} GPUs", trace.string(),
                            run_ranks, model.config().name(), model.gpu_count()));
  }
  for (uint32_t r = 0; r < run_ranks; ++r) {
    const auto known = std::find(plan.folders.begin(), plan.folders.end(), plan.rank_folders[r]);
    if (known != plan.folders.end()) {
      plan.players[static_cast<std::size_t>(known - plan.folders.begin())].ranks.push_back(r);
      continue;
    }
    plan.folders.push_back(plan.rank_folders[r]);
    plan.players.push_back(Player{{r}, {}});
  }
  // Instances by (communicator, call number on it); members_seen counts each one's ranks.
  std::map<std::pair<std::vector<uint32_t>, std::size_t>, std::size_t> by_key;
  std::vector<std::size_t> members_seen;
  for (std::size_t p = 0; p < plan.players.size(); ++p) {
    Player& player = plan.players[p];
    std::map<std::vector<uint32_t>, std::size_t> calls_on;  // communicator -> calls so far
    for (const traces::CollectiveCommand& c : collectives_of(plan.folders[p])) {
      system::CollectiveCall call = to_call(c, run_ranks);
      for (uint32_t r : player.ranks) {
        if (std::find(call.ranks.begin(), call.ranks.end(), r) == call.ranks.end()) {
          throw Error(fmt::format("{}: rank {} replays this trace but is not in ranks={}", c.source,
                                  r, traces::format_ranks(c.ranks)));
        }
      }
      const std::pair key{call.ranks, calls_on[call.ranks]++};
      auto [at, added] = by_key.emplace(key, plan.instances.size());
      if (added) {
        CollectiveInstance instance;
        instance.call = std::move(call);
        instance.source = c.source;
        plan.instances.push_back(std::move(instance));
        members_seen.push_back(0);
      } else if (!same_call(plan.instances[at->second].call, call)) {
        const CollectiveInstance& first = plan.instances[at->second];
        throw Error(fmt::format(
            "{}: {} is call {} on the communicator of ranks {}, where {} calls {}: every rank "
            "of a communicator makes the same calls in the same order",
            c.source, describe(call), key.second + 1, traces::format_ranks(key.first), first.source,
            describe(first.call)));
      }
      members_seen[at->second] += player.ranks.size();
      player.instances.push_back(at->second);
    }
  }
  for (std::size_t k = 0; k < plan.instances.size(); ++k) {
    CollectiveInstance& instance = plan.instances[k];
    if (members_seen[k] != instance.call.ranks.size()) {
      throw Error(fmt::format(
          "{}: {} on ranks {} is made by {} of its {} ranks: each rank's trace must call it",
          instance.source, describe(instance.call), traces::format_ranks(instance.call.ranks),
          members_seen[k], instance.call.ranks.size()));
    }
    try {
      instance.result = model.run(instance.call);
    } catch (const Error& e) {
      throw Error(fmt::format("{}: {}", instance.source, e.what()));
    }
  }
  return plan;
}

}  // namespace sassim::multigpu
