#include "multigpu/collective_instance.h"

#include <fmt/format.h>

namespace sassim::multigpu {

std::string describe(const system::CollectiveCall& call) {
  return fmt::format("{} {} {} B", system::name_of(call.op), system::name_of(call.type),
                     call.bytes);
}

std::string CollectiveInstance::describe() const {
  return fmt::format("{} ({})", multigpu::describe(call), source);
}

}  // namespace sassim::multigpu
