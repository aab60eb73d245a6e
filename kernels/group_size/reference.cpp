#include "kernels/group_size/reference.hpp"

#include <stdexcept>

#include "kernels/random.hpp"

namespace csbench::group_size {

void ScaleAdd(std::span<const float> in, float a, float b, std::span<float> out) {
  if (out.size() != in.size()) throw std::invalid_argument("ScaleAdd: output size mismatch");
  for (size_t i = 0; i < in.size(); ++i) out[i] = a * in[i] + b;
}

std::vector<float> RandomFloats(uint32_t count, uint64_t seed) {
  std::vector<float> values(count);
  FillUniform(values, seed);
  return values;
}

}  // namespace csbench::group_size
