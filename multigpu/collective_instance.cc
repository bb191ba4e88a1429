#include "multigpu/collective_instance.h"

#include <fmt/format.h>

namespace sassim::multigpu {

std::string CollectiveInstance::describe() const {
  return fmt::format("{} {} {} B ({})", system::name_of(call.op), system::name_of(call.type),
                     call.bytes, source);
}

}  // namespace sassim::multigpu
