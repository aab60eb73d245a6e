// The vector_width family's plain-loop implementation: the reference of every element width and
// the CPU fallback backend.
#pragma once

#include <span>

namespace csbench::vector_width {

// out[i] = a * in[i]. `out` must be as long as `in`.
void Scale(std::span<const float> in, float a, std::span<float> out);

}  // namespace csbench::vector_width
