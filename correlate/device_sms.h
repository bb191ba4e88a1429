#pragma once
// SM counts of GPUs that nvprof supports (Pascal, Volta, Turing), by the device name
// nvprof prints ("NVIDIA GeForce GTX 1080 (0)"), from NVIDIA's datasheets (CUDA cores /
// cores per SM). nvprof's elapsed_cycles_sm is summed over the SMs; this turns it into
// cycles per SM when --num-sms is not given.
#include <cstdint>
#include <optional>
#include <string_view>

namespace sassim::correlate {

std::optional<std::uint32_t> known_sm_count(std::string_view device_name);

}  // namespace sassim::correlate
