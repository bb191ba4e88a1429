#pragma once
// A workload of commands given in code (kernel launches, collectives), handed out in the
// order added: for tests that drive a Gpu without a trace folder.
#include <deque>
#include <optional>
#include <string>
#include <utility>

#include "traces/kernel_trace.h"

namespace sassim::sim::testing {

class CommandList final : public traces::Workload {
 public:
  void add(traces::Command c) { commands_.push_back(std::move(c)); }
  std::optional<traces::Command> next() override {
    if (commands_.empty()) return std::nullopt;
    auto c = std::move(commands_.front());
    commands_.pop_front();
    return c;
  }
  std::optional<traces::KernelInfo> first_kernel_info() override { return std::nullopt; }
  std::string description() const override { return "test commands"; }

 private:
  std::deque<traces::Command> commands_;
};

}  // namespace sassim::sim::testing
