#include "sim/kernel_signature.h"

#include <algorithm>
#include <bit>
#include <filesystem>
#include <map>

#include "traces/warp_stream.h"

namespace sassim::sim {
namespace {

bool global_space(isa::MemSpace space) {
  return space == isa::MemSpace::kGlobal || space == isa::MemSpace::kGeneric;
}

bool close(std::uint64_t a, std::uint64_t b, double tolerance) {
  const std::uint64_t hi = std::max(a, b), lo = std::min(a, b);
  return static_cast<double>(hi - lo) <= tolerance * static_cast<double>(hi);
}

bool same(const traces::Dim3& a, const traces::Dim3& b) {
  return a.x == b.x && a.y == b.y && a.z == b.z;
}

}  // namespace

KernelSignature signature_of(traces::KernelTrace& kernel) {
  const traces::KernelInfo& info = kernel.info();
  KernelSignature s;
  s.name = info.name;
  s.grid = info.grid;
  s.block = info.block;
  s.cluster = info.cluster;
  s.shmem_bytes = info.shmem_bytes;
  s.nregs = info.nregs;
  while (std::optional<traces::CtaTrace> cta = kernel.next_cta()) {
    ++s.ctas;
    for (traces::WarpStream& stream : cta->warps) {
      traces::WarpWindow window(std::move(stream));
      for (std::uint32_t i = 0; i < window.size(); ++i) {
        const isa::WarpInst& wi = window.inst(i);
        const isa::StaticInst& si = kernel.statics()[wi.static_index];
        ++s.warp_insts;
        ++s.mix[static_cast<std::size_t>(si.op.unit)];
        if (si.op.mem != isa::MemKind::kNone && global_space(si.op.space)) {
          s.global_bytes += std::uint64_t{si.mem_width_bytes} *
                            static_cast<unsigned>(std::popcount(wi.active_mask));
        }
        window.forget_before(i + 1);
      }
    }
  }
  return s;
}

std::vector<KernelSignature> workload_signatures(traces::Workload& workload) {
  std::vector<KernelSignature> out;
  // Launches of one kernel file: the file is read once (the headers are the same).
  std::map<std::string, std::size_t> first_of_file;
  while (std::optional<traces::Command> command = workload.next()) {
    auto* launch = std::get_if<traces::KernelLaunch>(&*command);
    if (launch == nullptr) continue;
    std::string source = launch->kernel->info().source;
    std::error_code error;
    if (!std::filesystem::is_regular_file(source, error)) source.clear();  // not from a file
    const auto seen = source.empty() ? first_of_file.end() : first_of_file.find(source);
    if (seen != first_of_file.end()) {
      out.push_back(out[seen->second]);
      continue;
    }
    if (!source.empty()) first_of_file.emplace(source, out.size());
    out.push_back(signature_of(*launch->kernel));
  }
  return out;
}

bool similar(const KernelSignature& a, const KernelSignature& b, double tolerance) {
  if (a.name != b.name || !same(a.grid, b.grid) || !same(a.block, b.block) ||
      !same(a.cluster, b.cluster) || a.shmem_bytes != b.shmem_bytes || a.nregs != b.nregs ||
      a.ctas != b.ctas) {
    return false;
  }
  if (!close(a.warp_insts, b.warp_insts, tolerance) ||
      !close(a.global_bytes, b.global_bytes, tolerance)) {
    return false;
  }
  for (std::size_t u = 0; u < a.mix.size(); ++u) {
    if (!close(a.mix[u], b.mix[u], tolerance)) return false;
  }
  return true;
}

}  // namespace sassim::sim
