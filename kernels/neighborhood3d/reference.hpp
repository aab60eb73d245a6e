// The neighborhood3d family's plain-loop implementation: a 3x3x3 binomial blur of an RGBA float
// volume, the correctness reference of every GPU variant and the CPU fallback backend.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace csbench::neighborhood3d {

// out(x, y, z) = sum over dx, dy, dz in {-1, 0, 1} of w[dx] w[dy] w[dz] in(clamped neighbour),
// per channel, w = [1 2 1] / 4 (the 2D family's weights): coordinates outside the volume are
// clamped to its faces. RGBA floats, x fastest, then y, then z. Sums in double.
void Blur3x3x3(std::span<const float> rgba, uint32_t width, uint32_t height, uint32_t depth, std::span<float> out);
std::vector<float> Blur3x3x3(std::span<const float> rgba, uint32_t width, uint32_t height, uint32_t depth);

}  // namespace csbench::neighborhood3d
