#pragma once
// Issue latency and initiation interval of every opcode of one architecture,
// resolved once from the config: the class values of `sm.units`, replaced by
// `sm.opcode_latency_cycles` where an opcode has its own latency, and for matrix
// instructions by the `sm.tensor_ops` entry of their form (opcode, shape, types).
#include <array>
#include <cstdint>
#include <vector>

#include "configs/sassim_config.pb.h"
#include "isa/arch.h"
#include "isa/opcode.h"

namespace sassim::sim {

class ExecTiming {
 public:
  // `arch` is the trace's architecture (whose opcode ids instructions carry);
  // `config_arch` the GPU config's. An override naming an opcode the config's own
  // architecture lacks is an error (a typo); one the trace's architecture lacks
  // (a trace of another generation) has nothing to apply to and is skipped.
  ExecTiming(const config::SmConfig& sm, isa::Arch arch, isa::Arch config_arch);

  std::uint32_t latency(const isa::DecodedOpcode& op) const {
    if (const TensorForm* form = tensor_form(op)) return form->latency_for(op.matrix.n);
    std::uint32_t by_opcode = op.id < latency_by_id_.size() ? latency_by_id_[op.id] : 0;
    return by_opcode != 0 ? by_opcode : class_latency_[static_cast<std::size_t>(op.unit)];
  }
  // True for opcodes that wait for the warp's asynchronous-copy groups (DEPBAR).
  bool waits_for_async_copies(const isa::DecodedOpcode& op) const {
    return op.id < waits_async_.size() && waits_async_[op.id];
  }
  // True for the L1 invalidation CCTL (CCTL.IVALL after DEPBAR.LE: the plain
  // cp.async.bulk.wait_group).
  bool invalidates_l1(const isa::DecodedOpcode& op) const {
    return op.id < invalidates_l1_.size() && invalidates_l1_[op.id];
  }
  // True for opcodes that commit the warp's uncommitted asynchronous copies into a
  // group (LDGDEPBAR).
  bool commits_async_group(const isa::DecodedOpcode& op) const {
    return op.id < commits_async_.size() && commits_async_[op.id];
  }
  std::uint32_t interval(isa::UnitClass unit) const {
    return class_interval_[static_cast<std::size_t>(unit)];
  }
  // Cycles the instruction holds its unit of one sub-core before the next may enter.
  // For warpgroup matrix instructions: cycles the SM's tensor units (all sub-cores
  // together) hold one operation before the next may start.
  std::uint32_t interval(const isa::DecodedOpcode& op) const {
    if (const TensorForm* form = tensor_form(op)) return form->interval_for(op.matrix.n);
    return interval(op.unit);
  }

 private:
  struct TensorForm {
    std::uint16_t id;        // opcode id in the trace architecture's table
    isa::MatrixShape shape;  // n = 0: the entry covers every N (warpgroup forms)
    std::uint32_t latency, interval;
    double latency_per_n = 0, interval_per_n = 0;
    std::uint32_t latency_for(std::uint16_t n) const { return scaled(latency, latency_per_n, n); }
    std::uint32_t interval_for(std::uint16_t n) const {
      return scaled(interval, interval_per_n, n);
    }
    static std::uint32_t scaled(std::uint32_t floor, double per_n, std::uint16_t n);
  };
  // The entry for the instruction's exact form, else one covering every N of it.
  const TensorForm* tensor_form(const isa::DecodedOpcode& op) const {
    if (op.unit != isa::UnitClass::kTensor) return nullptr;
    const TensorForm* any_n = nullptr;
    for (const TensorForm& f : tensor_forms_) {
      if (f.id != op.id) continue;
      if (f.shape == op.matrix) return &f;
      if (f.shape.n == 0) {
        isa::MatrixShape s = op.matrix;
        s.n = 0;
        if (f.shape == s) any_n = &f;
      }
    }
    return any_n;
  }
  void add_tensor_forms(const config::SmConfig& sm, const isa::OpcodeTable& table,
                        isa::Arch config_arch);

  std::array<std::uint32_t, isa::kNumUnitClasses> class_latency_{};
  std::array<std::uint32_t, isa::kNumUnitClasses> class_interval_{};
  std::vector<std::uint32_t> latency_by_id_;  // 0 = use the class latency
  std::vector<bool> waits_async_;
  std::vector<bool> commits_async_;
  std::vector<bool> invalidates_l1_;
  std::vector<TensorForm> tensor_forms_;  // one per distinct form, the config's last entry
};

}  // namespace sassim::sim
