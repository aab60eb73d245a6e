#include "kernels/occupancy/reference.hpp"

#include <cmath>
#include <stdexcept>

namespace csbench::occupancy {

void LiveValues(std::span<const float> seeds, uint32_t count, uint32_t live, uint32_t rounds, std::span<float> out) {
  if (live < 8) throw std::invalid_argument("LiveValues: live must be at least 8 (two vec4 of exchange)");
  if (count % 64 != 0) throw std::invalid_argument("LiveValues: count must be a multiple of 64");
  if (seeds.size() != size_t{count} * 4 || out.size() != count) {
    throw std::invalid_argument("LiveValues: size mismatch");
  }
  // All invocations advance round by round, as the barriers make them: v holds every invocation's
  // values, slots what each one published this round.
  std::vector<float> v(size_t{count} * live);
  for (uint32_t i = 0; i < count; ++i) {
    for (uint32_t k = 0; k < live; ++k) {
      const float x = seeds[size_t{i} * 4 + (k & 3)] + static_cast<float>(k) * 0.1234f;
      v[size_t{i} * live + k] = x - std::floor(x);
    }
  }
  std::vector<float> slots(size_t{count} * 8);
  for (uint32_t r = 0; r < rounds; ++r) {
    for (uint32_t i = 0; i < count; ++i) {
      for (uint32_t k = 0; k < 8; ++k) slots[size_t{i} * 8 + k] = v[size_t{i} * live + k];
    }
    for (uint32_t i = 0; i < count; ++i) {
      const uint32_t partner = i ^ (1u << (r % 6));
      float* mine = v.data() + size_t{i} * live;
      for (uint32_t k = 0; k < live; ++k) {
        const float n = slots[size_t{partner} * 8 + (k & 7)];
        mine[k] = 0.5f * mine[k] + 0.25f * n + 0.25f * mine[(k + 1) % live];
      }
    }
  }
  for (uint32_t i = 0; i < count; ++i) {
    float sum = 0.0f;
    for (uint32_t k = 0; k < live; ++k) sum += v[size_t{i} * live + k];
    out[i] = sum / static_cast<float>(live);
  }
}

std::vector<float> LiveValues(std::span<const float> seeds, uint32_t count, uint32_t live, uint32_t rounds) {
  std::vector<float> out(count);
  LiveValues(seeds, count, live, rounds, out);
  return out;
}

}  // namespace csbench::occupancy
