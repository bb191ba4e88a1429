// IEEE binary16 and bfloat16 conversions (round to nearest even) for the executor's
// packed-half and tensor-core operations.
#pragma once

#include <cstdint>

namespace sassim::emu {

float half_to_float(uint16_t bits);
uint16_t float_to_half(float value);
float bf16_to_float(uint16_t bits);
uint16_t float_to_bf16(float value);

}  // namespace sassim::emu
