// The group_size family's plain-loop implementation: the reference of the GPU kernel and the CPU
// fallback backend.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace csbench::group_size {

// out[i] = a * in[i] + b. `out` must be as long as `in`.
void ScaleAdd(std::span<const float> in, float a, float b, std::span<float> out);

// `count` reproducible random floats uniform in [0, 1), from `seed`.
std::vector<float> RandomFloats(uint32_t count, uint64_t seed);

}  // namespace csbench::group_size
