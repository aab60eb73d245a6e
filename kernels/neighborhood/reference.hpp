// The neighborhood family's plain-loop implementation: a 3x3 binomial blur of an RGBA float
// image, the correctness reference of every GPU variant and the CPU fallback backend.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace csbench::neighborhood {

// The filter's weights along one axis: [1 2 1] / 4, so the 3x3 weights sum to 1.
inline constexpr float kWeights[3] = {0.25f, 0.5f, 0.25f};

// out(x, y) = sum over dx, dy in {-1, 0, 1} of w[dx] w[dy] in(clamp(x + dx), clamp(y + dy)), per
// channel: coordinates outside the image are clamped to its edge. RGBA floats, row-major. Sums in
// double.
void Blur3x3(std::span<const float> rgba, uint32_t width, uint32_t height, std::span<float> out);
std::vector<float> Blur3x3(std::span<const float> rgba, uint32_t width, uint32_t height);

// The shared-memory tile's border overhead for a workgroup of x * y invocations and a one-pixel
// border: pixels loaded but not written, over pixels written (the article's 56% for 8x8).
double BorderPerInterior(uint32_t x, uint32_t y, uint32_t z = 1);
// The same border over all loaded pixels (the article's 3D figures: 70% for 4x4x4).
double BorderPerLoaded(uint32_t x, uint32_t y, uint32_t z = 1);

}  // namespace csbench::neighborhood
