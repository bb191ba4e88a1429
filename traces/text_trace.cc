#include "traces/text_trace.h"

#include <fmt/format.h>

#include "traces/accelsim_kernel.h"
#include "traces/line_source.h"

namespace sassim::traces {
namespace {

class KernelListWorkload final : public Workload {
 public:
  explicit KernelListWorkload(std::vector<std::unique_ptr<KernelTrace>> kernels)
      : kernels_(std::move(kernels)) {}

  std::optional<Command> next() override {
    if (next_ >= kernels_.size()) return std::nullopt;
    return KernelLaunch{std::move(kernels_[next_++])};
  }

  std::optional<KernelInfo> first_kernel_info() override {
    if (!first_info_ && !kernels_.empty() && kernels_.front())
      first_info_ = kernels_.front()->info();
    return first_info_;
  }

  std::string description() const override {
    return fmt::format("{} in-memory kernels", kernels_.size());
  }

 private:
  std::vector<std::unique_ptr<KernelTrace>> kernels_;
  std::size_t next_ = 0;
  std::optional<KernelInfo> first_info_;
};

}  // namespace

std::unique_ptr<KernelTrace> kernel_from_text(std::string text, std::string name_for_messages) {
  return std::make_unique<AccelsimKernelTrace>(
      memory_line_source(std::move(text), std::move(name_for_messages)));
}

std::unique_ptr<Workload> workload_from_kernels(std::vector<std::unique_ptr<KernelTrace>> kernels) {
  return std::make_unique<KernelListWorkload>(std::move(kernels));
}

}  // namespace sassim::traces
