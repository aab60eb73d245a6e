#include "kernels/ceiling/reference.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace csbench::ceiling {
namespace {

using Quad = std::array<uint32_t, 4>;

// shuffle.comp's start for subgroup lane `lane`.
Quad ShuffleStart(uint32_t lane) { return {lane * 2654435761u + 1u, lane * 40503u + 7u, lane ^ 0x5bd1e995u, lane * 97u + 3u}; }

// shared.comp's word `i` of its tile.
Quad SharedWord(uint32_t i) {
  uint32_t h = i * 2654435761u + 0x9e3779b9u;
  h ^= h >> 15;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  return {h, h * 3u + 1u, h ^ 0x27d4eb2fu, h + i};
}

}  // namespace

float FloatStart(uint32_t seed, uint32_t chain) {
  return static_cast<float>(seed) * (1.0f / 512.0f) + static_cast<float>(chain) * (1.0f / 64.0f);
}

uint32_t UintStart(uint32_t seed, uint32_t chain) { return seed * 2654435761u + chain * 40503u + 1u; }

float RoundToHalf(double x) {
  if (x == 0) return 0;
  int exponent = 0;
  std::frexp(x, &exponent);  // x = m * 2^exponent, 0.5 <= |m| < 1
  // 11 significant bits for a normal float16; below 2^-14, a fixed quantum of 2^-24.
  const double quantum = std::ldexp(1.0, std::max(exponent, -13) - 11);
  return static_cast<float>(std::nearbyint(x / quantum) * quantum);
}

float FloatPeakResult(uint32_t seed, uint32_t trips) {
  float sum = 0;
  for (uint32_t c = 0; c < 4; ++c) {
    std::array<float, 4> x{};
    for (uint32_t k = 0; k < 4; ++k) x[k] = FloatStart(seed, 4 * c + k);
    for (uint32_t step = 0; step < trips * kStepsPerTrip; ++step) {
      for (float& v : x) v = std::fma(v, kA, kB);
    }
    sum += (x[0] + x[1]) + (x[2] + x[3]);
  }
  return sum;
}

float HalfPeakResult(uint32_t seed, uint32_t trips) {
  const double a = RoundToHalf(kA);
  const double b = RoundToHalf(kB);
  float sum = 0;
  for (uint32_t c = 0; c < 8; ++c) {
    std::array<double, 2> x{RoundToHalf(FloatStart(seed, 2 * c)), RoundToHalf(FloatStart(seed, 2 * c + 1))};
    for (uint32_t step = 0; step < trips * kStepsPerTrip; ++step) {
      // Float16 operands: the product and the sum are exact in double, so this is one rounding,
      // a fused multiply-add's.
      for (double& v : x) v = RoundToHalf(v * a + b);
    }
    sum += static_cast<float>(x[0]) + static_cast<float>(x[1]);
  }
  return sum;
}

uint32_t UintPeakResult(uint32_t seed, uint32_t trips) {
  uint32_t folded = 0;
  for (uint32_t c = 0; c < 4; ++c) {
    Quad x{};
    for (uint32_t k = 0; k < 4; ++k) x[k] = UintStart(seed, 4 * c + k);
    for (uint32_t step = 0; step < trips * kStepsPerTrip; ++step) {
      for (uint32_t& v : x) v = v * kIntA + kIntB;
    }
    folded ^= (x[0] ^ x[1]) ^ (x[2] ^ x[3]);
  }
  return folded;
}

uint32_t ShuffleResult(uint32_t lane, uint32_t trips) {
  // Masks 1 and 2 keep each group of four lanes to itself: simulate the four of `lane`.
  const uint32_t first = lane & ~3u;
  std::array<Quad, 4> x{};
  for (uint32_t l = 0; l < 4; ++l) x[l] = ShuffleStart(first + l);
  for (uint32_t step = 0; step < trips * kStepsPerTrip; ++step) {
    const uint32_t mask = step % 2 == 0 ? 1u : 2u;
    std::array<Quad, 4> next{};
    for (uint32_t l = 0; l < 4; ++l) {
      for (uint32_t k = 0; k < 4; ++k) next[l][k] = x[l ^ mask][k] + 1u;
    }
    x = next;
  }
  const Quad& mine = x[lane - first];
  return (mine[0] ^ mine[1]) ^ (mine[2] ^ mine[3]);
}

uint32_t SharedResult(uint32_t lane, uint32_t trips) {
  Quad sum{};
  for (uint32_t t = 0; t < trips; ++t) {
    const uint32_t base = (lane & 63u) + (t & 15u) * 64u;
    for (uint32_t k = 0; k < kStepsPerTrip; ++k) {
      const Quad w = SharedWord(base + k * 64u);
      for (uint32_t i = 0; i < 4; ++i) sum[i] += w[i];
    }
  }
  return (sum[0] ^ sum[1]) ^ (sum[2] ^ sum[3]);
}

}  // namespace csbench::ceiling
