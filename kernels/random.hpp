// Reproducible random inputs for every family: fast enough to fill half a gigabyte in a second.
#pragma once

#include <cstdint>
#include <span>

namespace csbench {

// The splitmix64 step: a good 64-bit mix of a counter.
constexpr uint64_t SplitMix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// Fills `values` with floats uniform in [0, 1), value i from (seed, i) alone.
// `first`: the index of values[0] in the whole stream, so that parts of one array filled apart
// (on several threads) hold what one fill of the whole would.
inline void FillUniform(std::span<float> values, uint64_t seed, uint64_t first = 0) {
  const uint64_t base = SplitMix64(seed) + first;
  for (size_t i = 0; i < values.size(); ++i) {
    values[i] = static_cast<float>(SplitMix64(base + i) >> 40) * 0x1.0p-24f;
  }
}

}  // namespace csbench
