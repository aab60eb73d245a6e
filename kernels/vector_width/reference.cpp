#include "kernels/vector_width/reference.hpp"

#include <stdexcept>

namespace csbench::vector_width {

void Scale(std::span<const float> in, float a, std::span<float> out) {
  if (out.size() != in.size()) throw std::invalid_argument("Scale: output size mismatch");
  for (size_t i = 0; i < in.size(); ++i) out[i] = a * in[i];
}

}  // namespace csbench::vector_width
