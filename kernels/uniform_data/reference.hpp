// The uniform_data family's plain-loop implementation: positions transformed by their group's
// matrix, the correctness reference and the CPU fallback.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace csbench::uniform_data {

// `rows` is 4 (4x4 matrices, xyzw positions) or 3 (4x3 matrices, xyz positions with w = 1).
// Element i uses matrix i / group; a matrix is `rows` rows of 4 floats, row-major. Output: `rows`
// floats per element, row r the dot product of matrix row r with the position. Sums in double.
void Transform(std::span<const float> positions, std::span<const float> matrices, uint32_t rows, uint32_t group,
               std::span<float> out);
std::vector<float> Transform(std::span<const float> positions, std::span<const float> matrices, uint32_t rows,
                             uint32_t group);

}  // namespace csbench::uniform_data
