// open_accelsim_workload / open_accelsim_kernel (traces/accelsim_reader.h).
#include <cstring>
#include <string>

#include <fmt/format.h>

#include "ground/error.h"
#include "traces/accelsim_kernel.h"
#include "traces/accelsim_reader.h"
#include "traces/kernelslist.h"

namespace sassim::traces {
namespace {

class AccelsimWorkload final : public Workload {
 public:
  AccelsimWorkload(std::filesystem::path list, std::vector<ListEntry> entries,
                   std::shared_ptr<TraceStore> store)
      : list_(std::move(list)), entries_(std::move(entries)), store_(std::move(store)) {
    for (std::size_t i = 0; i < entries_.size(); ++i) {
      if (std::holds_alternative<CollectiveCommand>(entries_[i])) ++collectives_;
      if (std::holds_alternative<KernelFile>(entries_[i])) {
        ++kernels_;
        if (first_kernel_ == entries_.size()) first_kernel_ = i;
      }
    }
  }

  std::optional<Command> next() override {
    if (next_ >= entries_.size()) return std::nullopt;
    const std::size_t i = next_++;
    if (const auto* copy = std::get_if<MemcpyHtoD>(&entries_[i])) return *copy;
    if (const auto* collective = std::get_if<CollectiveCommand>(&entries_[i])) return *collective;
    if (i == first_kernel_ && first_) return KernelLaunch{std::move(first_)};
    auto kernel = open_accelsim_kernel(std::get<KernelFile>(entries_[i]).path, store_);
    if (i == first_kernel_) first_info_ = kernel->info();
    return KernelLaunch{std::move(kernel)};
  }

  std::optional<KernelInfo> first_kernel_info() override {
    if (first_info_ || first_kernel_ == entries_.size()) return first_info_;
    // Not consumed yet: open it now and keep it for next().
    first_ = open_accelsim_kernel(std::get<KernelFile>(entries_[first_kernel_]).path, store_);
    first_info_ = first_->info();
    return first_info_;
  }

  std::optional<std::size_t> kernel_count() const override { return kernels_; }
  std::size_t collective_count() const override { return collectives_; }

  std::string description() const override {
    return fmt::format("Accel-Sim trace {} ({} kernels, {} memory copies{})", list_.string(),
                       kernels_, entries_.size() - kernels_ - collectives_,
                       collectives_ == 0 ? "" : fmt::format(", {} collectives", collectives_));
  }

 private:
  std::filesystem::path list_;
  std::vector<ListEntry> entries_;
  std::shared_ptr<TraceStore> store_;
  std::size_t next_ = 0;
  std::size_t kernels_ = 0;
  std::size_t collectives_ = 0;
  std::size_t first_kernel_ = entries_.size();
  std::unique_ptr<KernelTrace> first_;  // opened by first_kernel_info()
  std::optional<KernelInfo> first_info_;
};

}  // namespace

std::unique_ptr<Workload> open_accelsim_workload(const std::filesystem::path& trace,
                                                 std::shared_ptr<TraceStore> store) {
  std::error_code ec;
  std::filesystem::path list = trace;
  if (std::filesystem::is_directory(trace, ec)) {
    list = trace / "kernelslist.g";
    if (!std::filesystem::is_regular_file(list, ec)) {
      throw Error(
          fmt::format("{}: no kernelslist.g in this folder: expected an Accel-Sim trace "
                      "folder or a kernelslist.g file",
                      trace.string()));
    }
  } else if (!std::filesystem::exists(trace, ec)) {
    throw Error(
        fmt::format("{}: no such file or folder: expected a kernelslist.g or a folder "
                    "holding one",
                    trace.string()));
  }
  // One kernel file given as the trace: a list of that kernel alone.
  const std::string name = trace.filename().string();
  for (const char* suffix : {".traceg", ".traceg.xz", ".traceg.zst"}) {
    if (name.size() > std::strlen(suffix) && name.ends_with(suffix) &&
        std::filesystem::is_regular_file(trace, ec)) {
      return std::make_unique<AccelsimWorkload>(
          trace, std::vector<ListEntry>{KernelFile{trace, 0}},
          store != nullptr ? std::move(store) : default_trace_store());
    }
  }
  auto entries = read_kernelslist(list);
  return std::make_unique<AccelsimWorkload>(
      list, std::move(entries), store != nullptr ? std::move(store) : default_trace_store());
}

std::unique_ptr<KernelTrace> open_accelsim_kernel(const std::filesystem::path& file,
                                                  std::shared_ptr<TraceStore> store) {
  auto found = find_trace_file(file);
  if (!found) {
    throw Error(
        fmt::format("{}: no such kernel trace (nor {}.xz nor .zst)", file.string(), file.string()));
  }
  return std::make_unique<AccelsimKernelTrace>(open_line_source(*found), std::move(store));
}

}  // namespace sassim::traces
