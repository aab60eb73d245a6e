#include "kernels/bank_conflicts/reference.hpp"

#include <stdexcept>

namespace csbench::bank_conflicts {

void Transpose(std::span<const float> in, uint32_t width, uint32_t height, std::span<float> out) {
  if (in.size() != size_t{width} * height || out.size() != in.size()) {
    throw std::invalid_argument("Transpose: size mismatch");
  }
  for (uint32_t y = 0; y < height; ++y) {
    for (uint32_t x = 0; x < width; ++x) out[size_t{x} * height + y] = in[size_t{y} * width + x];
  }
}

void StridedSums(std::span<const float> words, uint32_t workgroup, uint32_t stride, uint32_t accesses,
                 std::span<float> out) {
  if (words.size() < kSharedWords) throw std::invalid_argument("StridedSums: fewer than 4096 words");
  if (workgroup == 0) throw std::invalid_argument("StridedSums: empty workgroup");
  for (size_t i = 0; i < out.size(); ++i) {
    const uint32_t base = static_cast<uint32_t>(i % workgroup) * stride;
    float sum = 0.0f;
    for (uint32_t a = 0; a < accesses; ++a) sum += words[(base + a) & (kSharedWords - 1)];
    out[i] = sum;
  }
}

}  // namespace csbench::bank_conflicts
