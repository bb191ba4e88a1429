#include "traces/emu/suite/suite_io.h"
#include "traces/emu/suite/byte_vectors.h"

#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "ground/error.h"
#include "kernels/bf16_gemm_wgmma.h"
#include "kernels/bf16_gemm_ws.h"
#include "kernels/e4m3.h"
#include "kernels/flash_attention.h"
#include "kernels/fp8_gemm_wgmma.h"
#include "kernels/hgemm_mma.h"
#include "kernels/pointer_chase.h"
#include "kernels/reduction.h"
#include "kernels/saxpy.h"
#include "kernels/sgemm.h"
#include "kernels/stream.h"
#include "kernels/transpose.h"
#include "kernels/ubench/ubench.h"
#include "kernels/values.h"
#include "kernels/vector_add.h"
#include "traces/emu/suite/compare.h"
#include "traces/emu/suite/llm_io.h"
#include "traces/emu/suite/moe_io.h"
#include "traces/emu/suite/prefill_io.h"
#include "traces/emu/suite/spec_io.h"
#include "traces/emu/suite/ubench_check.h"

namespace sassim::emu {
namespace {

namespace k = kernels;

void fill_floats(DeviceBuffers& b, size_t arg, uint64_t seed) {
  std::vector<float> v(b.arg(arg).size() / 4);
  k::fill_dyadic(v, seed);
  write_as(b.arg(arg), v);
}

void fill_halves(DeviceBuffers& b, size_t arg, uint64_t seed) {
  std::vector<uint16_t> v(b.arg(arg).size() / 2);
  k::fill_dyadic_half(v, seed);
  write_as(b.arg(arg), v);
}

std::vector<uint16_t> bf16s(DeviceBuffers& b, size_t arg, uint64_t seed) {
  std::vector<uint16_t> v(b.arg(arg).size() / 2);
  k::fill_dyadic_bf16(v, seed);
  return v;
}

std::vector<uint8_t> e4m3s(DeviceBuffers& b, size_t arg, uint64_t seed) {
  std::vector<uint8_t> v(b.arg(arg).size());
  k::fill_dyadic_e4m3(v, seed);
  return v;
}

}  // namespace

void fill_suite_inputs(const k::Launch& launch, k::ParamValues values, DeviceBuffers& b) {
  const std::string_view name = launch.kernel;
  if (name == k::vector_add::kKernel || name == k::saxpy::kKernel) {
    fill_floats(b, 0, 1);
    fill_floats(b, 1, 2);
  } else if (name == k::stream::kCopyKernel) {
    fill_floats(b, 0, 1);
    fill_floats(b, 1, 3);
  } else if (name == k::stream::kTriadKernel || name == k::sgemm::kKernel) {
    fill_floats(b, 0, 1);
    fill_floats(b, 1, 2);
    fill_floats(b, 2, 3);
  } else if (name == k::reduction::kKernel || name == k::transpose::kNaiveKernel ||
             name == k::transpose::kSharedKernel || name == k::transpose::kPaddedKernel) {
    fill_floats(b, 0, 1);
  } else if (name == k::pointer_chase::kGlobalKernel || name == k::pointer_chase::kSharedKernel) {
    write_as(b.arg(0),
             k::pointer_chase::build_chain(k::pointer_chase::parse_problem(name, values)));
  } else if (name == k::hgemm_mma::kKernel) {
    fill_halves(b, 0, 1);
    fill_halves(b, 1, 2);
  } else if (name == k::bf16_gemm_wgmma::kKernel || name == k::bf16_gemm_ws::kKernel) {
    write_as(b.arg(0), bf16s(b, 0, 1));  // the matrices the two tensor maps describe
    write_as(b.arg(1), bf16s(b, 1, 2));
  } else if (name == k::fp8_gemm_wgmma::kKernel) {
    write_as(b.arg(0), e4m3s(b, 0, 1));
    write_as(b.arg(1), e4m3s(b, 1, 2));
  } else if (name == k::flash_attention::kKernel) {
    fill_halves(b, 0, 1);
    fill_halves(b, 1, 2);
    fill_halves(b, 2, 3);
  } else if (fill_llm_inputs(launch, values, b)) {
  } else if (fill_prefill_inputs(launch, values, b)) {
  } else if (fill_moe_inputs(launch, values, b)) {
  } else if (fill_spec_inputs(launch, values, b)) {
  } else if (k::ubench::is_kernel(name)) {
    for (uint32_t i = 0; i < launch.arguments().size(); ++i) {
      std::vector<uint8_t> init = k::ubench::initial_contents(launch, i);
      if (!init.empty()) write_as(b.arg(i), init);
    }
  } else {
    throw Error(
        fmt::format("capture has no inputs for kernel {}: expected one of the suite's "
                    "kernels (kernels/suite.txt)",
                    name));
  }
}

std::vector<HostCopy> suite_host_copies(const k::Launch& launch, DeviceBuffers& b) {
  std::vector<HostCopy> copies;
  if (!k::ubench::is_kernel(launch.kernel)) return copies;
  for (uint32_t i = 0; i < launch.arguments().size(); ++i) {
    const std::vector<uint8_t> init = k::ubench::initial_contents(launch, i);
    if (init.empty()) continue;
    const int a = b.allocation_of_arg.at(i);
    copies.push_back(HostCopy{b.memory.address(static_cast<size_t>(a)), init.size()});
  }
  return copies;
}

SuiteCheck check_suite_outputs(const k::Launch& launch, k::ParamValues values, DeviceBuffers& b) {
  const std::string_view name = launch.kernel;
  // Inputs as the kernel found them, regenerated (kernels may overwrite their inputs).
  auto inputs = [&](size_t arg, uint64_t seed) {
    std::vector<float> v(b.arg(arg).size() / 4);
    k::fill_dyadic(v, seed);
    return v;
  };
  if (name == k::vector_add::kKernel) {
    std::vector<float> want(b.arg(2).size() / 4);
    k::vector_add::reference(inputs(0, 1), inputs(1, 2), want);
    return compare_values(read_as<float>(b.arg(2)), want, 0, 0, name);
  }
  if (name == k::saxpy::kKernel) {
    std::vector<float> y = inputs(1, 2);
    k::saxpy::reference(inputs(0, 1), y, k::saxpy::kAlpha);
    return compare_values(read_as<float>(b.arg(1)), y, 0, 0, name);
  }
  if (name == k::stream::kCopyKernel) {
    std::vector<float> c(b.arg(1).size() / 4);
    k::stream::copy_reference(inputs(0, 1), c);
    return compare_values(read_as<float>(b.arg(1)), c, 0, 0, name);
  }
  if (name == k::stream::kTriadKernel) {
    std::vector<float> a = inputs(0, 1);
    k::stream::triad_reference(a, inputs(1, 2), inputs(2, 3), k::stream::kScalar);
    return compare_values(read_as<float>(b.arg(0)), a, 0, 0, name);
  }
  if (name == k::reduction::kKernel) {
    const auto p = k::reduction::parse_problem(values);
    return compare_values(read_as<float>(b.arg(1)),
                          k::reduction::reference_partials(p, inputs(0, 1)), 0, 0, name);
  }
  if (name == k::transpose::kNaiveKernel || name == k::transpose::kSharedKernel ||
      name == k::transpose::kPaddedKernel) {
    const auto p = k::transpose::parse_problem(values);
    std::vector<float> want(b.arg(1).size() / 4);
    k::transpose::reference(p, inputs(0, 1), want);
    return compare_values(read_as<float>(b.arg(1)), want, 0, 0, name);
  }
  if (name == k::pointer_chase::kGlobalKernel || name == k::pointer_chase::kSharedKernel) {
    const auto p = k::pointer_chase::parse_problem(name, values);
    const auto chain = k::pointer_chase::build_chain(p);
    const uint32_t want = k::pointer_chase::final_index(chain, uint64_t{p.warmup_steps} + p.steps);
    const uint32_t got = read_as<uint32_t>(b.arg(3)).at(0);
    return {got == want, fmt::format("{}: ended on index {}, expected {}", name, got, want)};
  }
  if (name == k::sgemm::kKernel) {
    const auto p = k::sgemm::parse_problem(values);
    std::vector<float> c = inputs(2, 3);
    k::sgemm::reference(p, inputs(0, 1), inputs(1, 2), c, k::sgemm::kAlpha, k::sgemm::kBeta);
    return compare_values(read_as<float>(b.arg(2)), c, 0, 0, name);
  }
  auto halves = [&](size_t arg, uint64_t seed) {
    std::vector<uint16_t> v(b.arg(arg).size() / 2);
    k::fill_dyadic_half(v, seed);
    return v;
  };
  if (name == k::hgemm_mma::kKernel) {
    const auto p = k::hgemm_mma::parse_problem(values);
    std::vector<float> c(b.arg(2).size() / 4);
    k::hgemm_mma::reference(p, halves(0, 1), halves(1, 2), c);
    return compare_values(read_as<float>(b.arg(2)), c, 0, 0, name);
  }
  if (name == k::bf16_gemm_wgmma::kKernel || name == k::bf16_gemm_ws::kKernel) {
    const auto p = name == k::bf16_gemm_ws::kKernel ? k::bf16_gemm_ws::parse_problem(values)
                                                    : k::bf16_gemm_wgmma::parse_problem(values);
    std::vector<float> c(b.arg(2).size() / 4);
    k::bf16_gemm_wgmma::reference(p, bf16s(b, 0, 1), bf16s(b, 1, 2), c);
    return compare_values(read_as<float>(b.arg(2)), c, 0, 0, name);
  }
  if (name == k::fp8_gemm_wgmma::kKernel) {
    const auto p = k::fp8_gemm_wgmma::parse_problem(values);
    std::vector<float> c(b.arg(2).size() / 4);
    k::fp8_gemm_wgmma::reference(p, e4m3s(b, 0, 1), e4m3s(b, 1, 2), k::fp8_gemm_wgmma::kScaleA,
                                 k::fp8_gemm_wgmma::kScaleB, c);
    return compare_values(read_as<float>(b.arg(2)), c, 0, 0, name);
  }
  if (name == k::flash_attention::kKernel) {
    const auto p = k::flash_attention::parse_problem(values);
    std::vector<float> o(b.arg(3).size() / 4);
    k::flash_attention::reference_blockwise(p, halves(0, 1), halves(1, 2), halves(2, 3), o);
    return compare_values(read_as<float>(b.arg(3)), o, 1e-3, 1e-4, name);
  }
  if (auto c = check_llm_outputs(launch, values, b)) return *c;
  if (auto c = check_prefill_outputs(launch, values, b)) return *c;
  if (auto c = check_moe_outputs(launch, values, b)) return *c;
  if (auto c = check_spec_outputs(launch, values, b)) return *c;
  if (k::ubench::is_kernel(name)) return check_ubench_outputs(launch, b);
  throw Error(fmt::format("capture cannot check kernel {}", name));
}

}  // namespace sassim::emu
