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

// The float variants' inputs make a float sum as checkable as an integer one: every value is +0.5
// or -0.5, so any partial sum of n of them, added in any order or grouping (atomics in any order,
// shared-memory trees, subgroupAdd), is a multiple of 0.5 of magnitude at most n/2. For n up to
// 2^24 every such number is a float (its count of halves fits the 24-bit significand), so no
// addition rounds and every order gives the plain loop's total bit for bit. The bound is tight:
// a 2^24 + 1st half of the same sign rounds away, and on 2^24 elements (the family's domain) any
// value larger than the spacing of the values could overflow the significand. Random signs, not
// zeros, keep every input nonzero (as the uint inputs are) and the total small.
inline constexpr uint32_t kMaxExactFloatCount = 1u << 24;

// The sum of `values` in float, in order; exact for the inputs above (up to kMaxExactFloatCount).
float Sum(std::span<const float> values);

// `count` reproducible random values, each +0.5 or -0.5 with equal odds, from `seed`.
std::vector<float> RandomHalves(uint32_t count, uint64_t seed);

}  // namespace csbench::atomics
