#include "kernels/atomics/reference.hpp"

#include "kernels/random.hpp"

namespace csbench::atomics {

uint32_t Sum(std::span<const uint32_t> values) {
  uint32_t sum = 0;
  for (uint32_t v : values) sum += v;  // unsigned: wraps modulo 2^32, as the GPU does
  return sum;
}

std::vector<uint32_t> RandomIntegers(uint32_t count, uint64_t seed) {
  std::vector<uint32_t> values(count);
  const uint64_t base = SplitMix64(seed);
  for (uint32_t i = 0; i < count; ++i) values[i] = static_cast<uint32_t>(SplitMix64(base + i) >> 48);
  return values;
}

float Sum(std::span<const float> values) {
  float sum = 0;
  for (float v : values) sum += v;
  return sum;
}

std::vector<float> RandomHalves(uint32_t count, uint64_t seed) {
  std::vector<float> values(count);
  const uint64_t base = SplitMix64(seed);
  for (uint32_t i = 0; i < count; ++i) values[i] = (SplitMix64(base + i) >> 63) != 0 ? 0.5f : -0.5f;
  return values;
}

}  // namespace csbench::atomics
