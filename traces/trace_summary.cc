#include "traces/trace_summary.h"

#include "isa/opcode.h"

namespace sassim::traces {

std::vector<KernelSummary> summarize(Workload& workload) {
  std::vector<KernelSummary> out;
  while (auto command = workload.next()) {
    auto* launch = std::get_if<KernelLaunch>(&*command);
    if (launch == nullptr) continue;
    KernelTrace& kernel = *launch->kernel;
    KernelSummary s;
    std::vector<std::uint64_t> per_static;  // dynamic count per static instruction
    while (auto cta = kernel.next_cta()) {
      ++s.ctas;
      for (WarpStream& warp : cta->warps) {
        if (warp.empty()) continue;
        ++s.warps;
        s.warp_insts += warp.size();
        WarpWindow window(std::move(warp));
        for (std::uint32_t i = 0; i < window.size(); ++i) {
          const std::uint32_t index = window.inst(i).static_index;
          if (index >= per_static.size()) per_static.resize(kernel.statics().size());
          ++per_static[index];
          window.forget_before(i + 1);
        }
      }
    }
    s.info = kernel.info();
    const isa::OpcodeTable& table = isa::OpcodeTable::get(s.info.arch);
    for (std::uint32_t i = 0; i < per_static.size(); ++i) {
      if (per_static[i] == 0) continue;
      const isa::DecodedOpcode& op = kernel.statics()[i].op;
      s.opcode_mix[std::string(table.mnemonic(op.id))] += per_static[i];
      if (op.mem != isa::MemKind::kNone) s.mem_insts += per_static[i];
    }
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace sassim::traces
