#include "isa/flops.h"

#include "isa/matrix.h"

namespace sassim::isa {
namespace {

std::uint16_t per_thread(std::uint64_t total, std::uint32_t threads) {
  return static_cast<std::uint16_t>(total / threads);
}

// 2*M*N*K of the warp (warpgroup for GMMA) over its threads; a shape not spelled
// counts as no FLOPs rather than guessed.
FlopInfo matrix_flops(const OpcodeText& text) {
  const MatrixShape s = matrix_shape_of(text);
  const std::uint32_t threads = is_warpgroup_matrix(text.base()) ? 128 : 32;
  return {FlopKind::kTensor, per_thread(2ULL * s.m * s.n * s.k, threads)};
}

}  // namespace

std::string_view flop_kind_name(FlopKind kind) {
  constexpr std::string_view kNames[] = {"none", "fp32", "fp16", "fp64", "tensor"};
  return kNames[static_cast<std::size_t>(kind)];
}

FlopInfo flops_of(const OpcodeText& text) {
  const std::string_view op = text.base();
  if (op == "FFMA" || op == "FFMA32I") return {FlopKind::kFp32, 2};
  if (op == "FADD" || op == "FADD32I" || op == "FMUL" || op == "FMUL32I")
    return {FlopKind::kFp32, 1};
  if (op == "HFMA2" || op == "HFMA2_32I") return {FlopKind::kFp16, 4};
  if (op == "HADD2" || op == "HADD2_32I" || op == "HMUL2" || op == "HMUL2_32I") {
    return {FlopKind::kFp16, 2};
  }
  if (op == "DFMA") return {FlopKind::kFp64, 2};
  if (op == "DADD" || op == "DMUL") return {FlopKind::kFp64, 1};
  if (op == "HMMA" || op == "IMMA" || op == "DMMA" || op == "BMMA" || op == "QMMA" ||
      is_warpgroup_matrix(op)) {
    return matrix_flops(text);
  }
  return {};
}

}  // namespace sassim::isa
