// The packing family's conversions: IEEE binary16 <-> float on the host, so fp16 images can be
// uploaded, downloaded and compared with the neighborhood family's plain-loop blur.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace csbench::packing {

// Round to nearest even; overflow gives infinity, NaN stays NaN.
uint16_t FloatToHalf(float value);
float HalfToFloat(uint16_t half);

std::vector<uint16_t> ToHalf(std::span<const float> values);
std::vector<float> ToFloat(std::span<const uint16_t> halves);

}  // namespace csbench::packing
