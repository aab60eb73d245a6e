#include "kernels/reduction/reference.hpp"

#include <algorithm>
#include <stdexcept>

#include "kernels/random.hpp"

namespace csbench::reduction {

void TileLuminance(std::span<const float> rgba, uint32_t width, uint32_t height, uint32_t tile_w, uint32_t tile_h,
                   std::span<float> out) {
  if (tile_w == 0 || tile_h == 0) throw std::invalid_argument("TileLuminance: empty tile");
  if (rgba.size() != size_t{width} * height * 4) throw std::invalid_argument("TileLuminance: image size mismatch");
  const uint32_t tiles_x = (width + tile_w - 1) / tile_w;
  const uint32_t tiles_y = (height + tile_h - 1) / tile_h;
  if (out.size() != size_t{tiles_x} * tiles_y) throw std::invalid_argument("TileLuminance: output size mismatch");
  std::vector<double> sums(tiles_x);
  for (uint32_t ty = 0; ty < tiles_y; ++ty) {
    std::fill(sums.begin(), sums.end(), 0.0);
    const uint32_t y_end = std::min(height, (ty + 1) * tile_h);
    for (uint32_t y = ty * tile_h; y < y_end; ++y) {
      const float* row = rgba.data() + size_t{y} * width * 4;
      for (uint32_t x = 0; x < width; ++x) {
        const float* p = row + size_t{x} * 4;
        sums[x / tile_w] += static_cast<double>(kLuminance[0]) * p[0] + static_cast<double>(kLuminance[1]) * p[1] + static_cast<double>(kLuminance[2]) * p[2];
      }
    }
    for (uint32_t tx = 0; tx < tiles_x; ++tx) {
      const uint32_t w = std::min(width - tx * tile_w, tile_w);
      const uint32_t h = y_end - ty * tile_h;
      out[size_t{ty} * tiles_x + tx] = static_cast<float>(sums[tx] / (static_cast<double>(w) * h));
    }
  }
}

std::vector<float> TileLuminance(std::span<const float> rgba, uint32_t width, uint32_t height, uint32_t tile_w,
                                 uint32_t tile_h) {
  if (tile_w == 0 || tile_h == 0) throw std::invalid_argument("TileLuminance: empty tile");
  std::vector<float> out(size_t{(width + tile_w - 1) / tile_w} * ((height + tile_h - 1) / tile_h));
  TileLuminance(rgba, width, height, tile_w, tile_h, out);
  return out;
}

double TotalLuminance(std::span<const float> rgba) {
  double sum = 0;
  for (size_t i = 0; i + 3 < rgba.size(); i += 4) {
    sum += double{kLuminance[0]} * rgba[i] + double{kLuminance[1]} * rgba[i + 1] + double{kLuminance[2]} * rgba[i + 2];
  }
  return sum;
}

std::vector<float> RandomImage(uint32_t width, uint32_t height, uint64_t seed) {
  std::vector<float> image(size_t{width} * height * 4);
  FillUniform(image, seed);
  return image;
}

}  // namespace csbench::reduction
