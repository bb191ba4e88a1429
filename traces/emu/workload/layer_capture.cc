#include "traces/emu/workload/layer_capture.h"

#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <cstring>

#include "ground/error.h"
#include "kernels/decode_attention.h"
#include "kernels/rope.h"
#include "kernels/values.h"
#include "traces/emu/workload/layer_check.h"

namespace sassim::emu::workload {
namespace {

namespace k = kernels;
namespace da = kernels::decode_attention;

template <typename T>
void put(std::vector<uint8_t>& bytes, const std::vector<T>& v) {
  std::memcpy(bytes.data(), v.data(), std::min(bytes.size(), v.size() * sizeof(T)));
}

da::Problem attention_problem(const LayerOptions& o) {
  return da::Problem{.batch = o.batch, .context = o.context, .kv_heads = o.kv_heads};
}

void fill(const LayerPlan& plan, const Tensor& t, std::vector<uint8_t>& bytes) {
  const LayerOptions& o = plan.options;
  const da::Problem attention = attention_problem(o);
  const std::vector<int32_t> lens = da::context_lens(attention);
  switch (t.fill) {
    case Fill::kZero:
      return;
    case Fill::kBf16: {
      std::vector<uint16_t> v(bytes.size() / 2);
      for (size_t i = 0; i < v.size(); ++i)
        v[i] = k::float_to_bf16(k::dyadic_value(t.seed, t.fill_offset + i));
      put(bytes, v);
      return;
    }
    case Fill::kWeightBf16:
    case Fill::kWeightFp16: {
      std::vector<uint16_t> v(bytes.size() / 2);
      const bool bf16 = t.fill == Fill::kWeightBf16;
      for (size_t i = 0; i < v.size(); ++i) {
        const float w = k::dyadic_value(t.seed, t.fill_offset + i) * t.weight_scale;
        v[i] = bf16 ? k::float_to_bf16(w) : k::float_to_half(w);
      }
      put(bytes, v);
      return;
    }
    case Fill::kPositions: {
      put(bytes, row_positions(o));
      return;
    }
    case Fill::kCosSin:
      put(bytes, k::rope::cos_sin_table(k::rope::Problem{.tokens = plan.tokens,
                                                         .heads = o.heads,
                                                         .kv_heads = o.kv_heads,
                                                         .max_position = o.context}));
      return;
    case Fill::kSlots: {
      // Row r of sequence b goes to its position in the sequence's pages.
      const std::vector<int32_t> tables = da::block_tables(attention);
      const std::vector<int32_t> positions = row_positions(o);
      std::vector<int64_t> v(positions.size());
      for (uint32_t r = 0; r < v.size(); ++r) {
        const auto pos = static_cast<uint32_t>(positions[r]);
        const size_t b = r / (o.draft + 1);
        const int32_t page = tables[b * attention.max_pages() + pos / da::kPageSize];
        v[r] = int64_t{page} * da::kPageSize + pos % da::kPageSize;
      }
      put(bytes, v);
      return;
    }
    case Fill::kBlockTables:
      put(bytes, da::block_tables(attention));
      return;
    case Fill::kContextLens:
      put(bytes, lens);
      return;
    case Fill::kPairOrder: {
      std::vector<int32_t> order(bytes.size() / 4);
      for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int32_t>(i);
      put(bytes, order);
      return;
    }
    case Fill::kPromptPositions:
    case Fill::kPromptSlots: {
      // Token i of prompt b: position i, slot i of the prompt's own pages b * P .. (contiguous,
      // as a fresh cache hands them out).
      const uint64_t pages = k::ceil_div(o.context, da::kPageSize);
      std::vector<int64_t> slots(plan.tokens);
      std::vector<int32_t> where(plan.tokens);
      for (uint32_t i = 0; i < plan.tokens; ++i) {
        const uint32_t b = i / o.context, pos = i % o.context;
        where[i] = static_cast<int32_t>(pos);
        slots[i] = static_cast<int64_t>(b * pages * da::kPageSize + pos);
      }
      if (t.fill == Fill::kPromptPositions) {
        put(bytes, where);
      } else {
        put(bytes, slots);
      }
      return;
    }
  }
}

}  // namespace

std::filesystem::path listing_path(const std::filesystem::path& listings,
                                   const PlannedLaunch& launch) {
  return listings / launch.listing_folder / (launch.kernel + ".sass");
}

std::vector<uint64_t> tensor_addresses(const LayerPlan& plan) {
  // GlobalMemory::allocate's placement: from kBase, each allocation 256-byte aligned.
  std::vector<uint64_t> addresses;
  uint64_t next = GlobalMemory::kBase;
  for (const Tensor& t : plan.tensors) {
    addresses.push_back(next);
    next += (std::max<uint64_t>(t.bytes, 1) + 255) / 256 * 256;
  }
  return addresses;
}

LayerExecutor::LayerExecutor(const LayerPlan& plan, const LayerCaptureOptions& options)
    : plan_(plan), options_(options) {
  // Every listing first, so that a missing one is an error before any long work.
  for (const PlannedLaunch& l : plan.launches) {
    const std::filesystem::path path = listing_path(options.listings, l);
    if (listings_.contains(path)) continue;
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) {
      throw Error(
          fmt::format("{} ({}): no listing {} (expected kernels/sass/{}/{}.sass under the "
                      "listings folder)",
                      l.step, l.kernel, path.string(), l.listing_folder, l.kernel));
    }
    listings_.emplace(path, traces::sass::read_listing(path));
  }
  for (const Tensor& t : plan.tensors) {
    memory_.memory.allocate(t.name, t.bytes);
    const size_t a = memory_.memory.count() - 1;
    allocation_of_tensor_.push_back(static_cast<int>(a));
    fill(plan, t, memory_.memory.buffer(a));
  }
}

std::vector<uint8_t>& LayerExecutor::tensor(int index) {
  return memory_.memory.buffer(
      static_cast<size_t>(allocation_of_tensor_.at(static_cast<size_t>(index))));
}

void LayerExecutor::run(size_t begin, size_t end, std::vector<LaunchReport>& reports) {
  const LayerCaptureOptions& options = options_;
  DeviceBuffers& memory = memory_;
  for (size_t i = begin; i < end; ++i) {
    const PlannedLaunch& l = plan_.launches.at(i);
    const auto args = l.launch.arguments();
    std::vector<int> allocations;
    std::vector<uint64_t> offsets;
    for (const Binding& b : l.bindings) {
      allocations.push_back(b.tensor < 0 ? -1
                                         : allocation_of_tensor_.at(static_cast<size_t>(b.tensor)));
      offsets.push_back(b.offset);
    }
    memory.bind(l.launch, allocations, offsets);
    std::vector<std::vector<uint8_t>> before(args.size());
    if (options.check) {
      for (size_t a = 0; a < args.size(); ++a) {
        const bool written =
            args[a].access == k::Access::kWrite || args[a].access == k::Access::kReadWrite;
        if (!written || allocations[a] < 0) continue;
        const auto& bytes = memory.memory.buffer(static_cast<size_t>(allocations[a]));
        before[a].assign(
            bytes.begin() + static_cast<std::ptrdiff_t>(offsets[a]),
            bytes.begin() + static_cast<std::ptrdiff_t>(offsets[a] + args[a].size_bytes));
      }
    }
    LaunchReport report;
    report.listing = listing_path(options.listings, l);
    const traces::sass::Listing& listing = listings_.at(report.listing);
    CaptureOptions capture_options;
    capture_options.trace_folder = options.trace_folder;
    capture_options.compression = options.compression;
    capture_options.sm_version = listing_sm_version(listing, report.listing);
    capture_options.const_bank2 = read_const_bank2(report.listing);
    capture_options.slot = TraceSlot{
        .kernel_id = static_cast<uint32_t>(i + 1), .stream_id = 0, .append_to_list = i > 0};
    if (options.progress) {
      capture_options.progress = [&, i](uint64_t done, uint64_t total, uint64_t) {
        options.progress(i, done, total);
      };
    }
    const auto start = std::chrono::steady_clock::now();
    try {
      report.result = capture(listing, l.launch, memory, capture_options);
    } catch (const Error& e) {
      throw Error(fmt::format("launch {} {} ({}): {}", i + 1, l.step, l.kernel, e.what()));
    }
    report.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (options.check) {
      const SuiteCheck c = check_layer_launch(l, memory, before);
      report.check = c.message;
      if (!c.ok) {
        reports.push_back(report);
        throw Error(fmt::format("--check failed at launch {} {} ({}): {}", i + 1, l.step, l.kernel,
                                c.message));
      }
    }
    reports.push_back(std::move(report));
  }
}

traces::WorkloadInfo workload_info(const LayerPlan& plan) {
  const LayerOptions& o = plan.options;
  return {.workload = std::string(plan.workload),
          .phase = o.phase == Phase::kPrefill ? "prefill" : "decode",
          .batch = o.batch,
          .context = o.context,
          .tokens = plan.tokens,
          .model_layers = o.model_layers};
}

void capture_layer(const LayerPlan& plan, const LayerCaptureOptions& options,
                   std::vector<LaunchReport>& reports) {
  LayerExecutor executor(plan, options);
  executor.run(0, plan.launches.size(), reports);
  if (!options.trace_folder.empty())
    traces::write_workload_info(options.trace_folder, workload_info(plan));
}

}  // namespace sassim::emu::workload
