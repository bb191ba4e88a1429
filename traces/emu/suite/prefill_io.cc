#include "traces/emu/suite/prefill_io.h"
#include "traces/emu/suite/byte_vectors.h"

#include <vector>

#include "kernels/prefill_attention.h"
#include "kernels/values.h"
#include "traces/emu/suite/compare.h"

namespace sassim::emu {
namespace {

namespace k = kernels;
namespace pa = kernels::prefill_attention;

std::vector<uint16_t> bf16s(DeviceBuffers& b, size_t arg, uint64_t seed) {
  std::vector<uint16_t> v(b.arg(arg).size() / 2);
  k::fill_dyadic_bf16(v, seed);
  return v;
}

}  // namespace

bool fill_prefill_inputs(const k::Launch& launch, k::ParamValues, DeviceBuffers& b) {
  if (launch.kernel != pa::kKernel) return false;
  for (size_t arg = 0; arg < 3; ++arg) write_as(b.arg(arg), bf16s(b, arg, arg + 1));
  return true;
}

std::optional<SuiteCheck> check_prefill_outputs(const k::Launch& launch, k::ParamValues values,
                                                DeviceBuffers& b) {
  if (launch.kernel != pa::kKernel) return std::nullopt;
  const pa::Problem p = pa::parse_problem(values);
  std::vector<float> spread;
  const std::vector<float> want =
      pa::reference_blockwise(p, bf16s(b, 0, 1), bf16s(b, 1, 2), bf16s(b, 2, 3), &spread);
  return compare_values(k::bf16_to_floats(read_as<uint16_t>(b.arg(3))), want,
                        pa::tolerances(want, spread), pa::kKernel);
}

}  // namespace sassim::emu
