#include "kernels/neighborhood/reference.hpp"

#include <algorithm>
#include <stdexcept>

namespace csbench::neighborhood {
namespace {

// The border of a tile: its extent grows by one on each side, but only along axes it spans
// (a 2D tile has no border in z).
double LoadedPixels(uint32_t x, uint32_t y, uint32_t z) {
  return (x + 2.0) * (y + 2.0) * (z > 1 ? z + 2.0 : 1.0);
}

}  // namespace

void Blur3x3(std::span<const float> rgba, uint32_t width, uint32_t height, std::span<float> out) {
  if (rgba.size() != size_t{width} * height * 4) throw std::invalid_argument("Blur3x3: image size mismatch");
  if (out.size() != rgba.size()) throw std::invalid_argument("Blur3x3: output size mismatch");
  for (uint32_t y = 0; y < height; ++y) {
    for (uint32_t x = 0; x < width; ++x) {
      double sum[4] = {0, 0, 0, 0};
      for (int dy = -1; dy <= 1; ++dy) {
        const uint32_t sy = static_cast<uint32_t>(std::clamp<int64_t>(int64_t{y} + dy, 0, height - 1));
        for (int dx = -1; dx <= 1; ++dx) {
          const uint32_t sx = static_cast<uint32_t>(std::clamp<int64_t>(int64_t{x} + dx, 0, width - 1));
          const double w = double{kWeights[dx + 1]} * kWeights[dy + 1];
          const float* p = rgba.data() + (size_t{sy} * width + sx) * 4;
          for (int c = 0; c < 4; ++c) sum[c] += w * p[c];
        }
      }
      float* o = out.data() + (size_t{y} * width + x) * 4;
      for (int c = 0; c < 4; ++c) o[c] = static_cast<float>(sum[c]);
    }
  }
}

std::vector<float> Blur3x3(std::span<const float> rgba, uint32_t width, uint32_t height) {
  std::vector<float> out(rgba.size());
  Blur3x3(rgba, width, height, out);
  return out;
}

double BorderPerInterior(uint32_t x, uint32_t y, uint32_t z) {
  const double interior = static_cast<double>(x) * y * z;
  return (LoadedPixels(x, y, z) - interior) / interior;
}

double BorderPerLoaded(uint32_t x, uint32_t y, uint32_t z) {
  const double loaded = LoadedPixels(x, y, z);
  return (loaded - static_cast<double>(x) * y * z) / loaded;
}

}  // namespace csbench::neighborhood
