#include "kernels/neighborhood3d/reference.hpp"

#include <algorithm>
#include <stdexcept>

#include "kernels/neighborhood/reference.hpp"

namespace csbench::neighborhood3d {

void Blur3x3x3(std::span<const float> rgba, uint32_t width, uint32_t height, uint32_t depth, std::span<float> out) {
  if (rgba.size() != size_t{width} * height * depth * 4) throw std::invalid_argument("Blur3x3x3: volume size mismatch");
  if (out.size() != rgba.size()) throw std::invalid_argument("Blur3x3x3: output size mismatch");
  auto clamp = [](uint32_t v, int d, uint32_t n) {
    return static_cast<uint32_t>(std::clamp<int64_t>(int64_t{v} + d, 0, int64_t{n} - 1));
  };
  const auto& w = neighborhood::kWeights;
  for (uint32_t z = 0; z < depth; ++z) {
    for (uint32_t y = 0; y < height; ++y) {
      for (uint32_t x = 0; x < width; ++x) {
        double sum[4] = {0, 0, 0, 0};
        for (int dz = -1; dz <= 1; ++dz) {
          for (int dy = -1; dy <= 1; ++dy) {
            for (int dx = -1; dx <= 1; ++dx) {
              const size_t i =
                  (size_t{clamp(z, dz, depth)} * height + clamp(y, dy, height)) * width + clamp(x, dx, width);
              const double weight = double{w[dx + 1]} * w[dy + 1] * w[dz + 1];
              for (int c = 0; c < 4; ++c) sum[c] += weight * rgba[i * 4 + c];
            }
          }
        }
        float* o = out.data() + ((size_t{z} * height + y) * width + x) * 4;
        for (int c = 0; c < 4; ++c) o[c] = static_cast<float>(sum[c]);
      }
    }
  }
}

std::vector<float> Blur3x3x3(std::span<const float> rgba, uint32_t width, uint32_t height, uint32_t depth) {
  std::vector<float> out(rgba.size());
  Blur3x3x3(rgba, width, height, depth, out);
  return out;
}

}  // namespace csbench::neighborhood3d
