// The atomics family's plain-loop implementation: the reference of every way of summing and the
// CPU fallback backend.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace csbench::atomics {

// The sum of `values` modulo 2^32: exact, and independent of the order of the additions, so every
// GPU variant must match it bit for bit.
uint32_t Sum(std::span<const uint32_t> values);

// `count` reproducible random integers uniform in [0, 2^16), from `seed`.
std::vector<uint32_t> RandomIntegers(uint32_t count, uint64_t seed);

}  // namespace csbench::atomics
