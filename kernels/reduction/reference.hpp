// The reduction family's plain-loop implementation: the correctness reference of every GPU
// variant and the CPU fallback backend.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace csbench::reduction {

// The luminance weights of the studies (Rec. 709 primaries).
inline constexpr float kLuminance[4] = {0.2125f, 0.7154f, 0.0721f, 0.0f};

// Average luminance of each tile_w x tile_h tile of a width x height RGBA float image
// (row-major, 4 floats per pixel). Edge tiles average over the pixels inside the image. Output is
// ceil(width/tile_w) x ceil(height/tile_h), row-major. Sums in double.
std::vector<float> TileLuminance(std::span<const float> rgba, uint32_t width, uint32_t height, uint32_t tile_w,
                                 uint32_t tile_h);

// Same, into `out` (which must hold the output size), so a timed loop allocates nothing.
void TileLuminance(std::span<const float> rgba, uint32_t width, uint32_t height, uint32_t tile_w, uint32_t tile_h,
                   std::span<float> out);

// The luminance sum of the whole image, in double: the reference of the CUB peer, which
// reduces to one value rather than to tiles.
double TotalLuminance(std::span<const float> rgba);

// A reproducible random image: RGBA values uniform in [0, 1), from `seed`.
std::vector<float> RandomImage(uint32_t width, uint32_t height, uint64_t seed);

}  // namespace csbench::reduction
