#include "kernels/uniform_data/reference.hpp"

#include <stdexcept>

namespace csbench::uniform_data {

void Transform(std::span<const float> positions, std::span<const float> matrices, uint32_t rows, uint32_t group,
               std::span<float> out) {
  if ((rows != 3 && rows != 4) || group == 0) throw std::invalid_argument("Transform: rows must be 3 or 4");
  if (positions.size() % rows != 0 || out.size() != positions.size()) {
    throw std::invalid_argument("Transform: size mismatch");
  }
  const size_t count = positions.size() / rows;
  if (matrices.size() < (count + group - 1) / group * rows * 4) throw std::invalid_argument("Transform: too few matrices");
  for (size_t i = 0; i < count; ++i) {
    const float* p = positions.data() + i * rows;
    const double w = rows == 4 ? p[3] : 1.0;
    const float* m = matrices.data() + (i / group) * rows * 4;
    for (uint32_t r = 0; r < rows; ++r) {
      const float* row = m + r * 4;
      out[i * rows + r] = static_cast<float>(double{row[0]} * p[0] + double{row[1]} * p[1] +
                                             double{row[2]} * p[2] + double{row[3]} * w);
    }
  }
}

std::vector<float> Transform(std::span<const float> positions, std::span<const float> matrices, uint32_t rows,
                             uint32_t group) {
  std::vector<float> out(positions.size());
  Transform(positions, matrices, rows, group, out);
  return out;
}

}  // namespace csbench::uniform_data
