// What the ceiling kernels (peak.comp, shuffle.comp, shared.comp) compute, on the host: each
// invocation's result from the few things it depends on (its index modulo 1024, its subgroup
// lane, its lane in the workgroup), so that a check of millions of invocations computes a
// handful of results.
#pragma once

#include <cstdint>

namespace csbench::ceiling {

// Steps per trip of every ceiling kernel (each unrolls 16).
inline constexpr uint32_t kStepsPerTrip = 16;

// The multiply-add chains of peak.comp and their operands: a < 1 keeps float chains bounded
// (fixed point b / (1 - a) = 0.5), and both are exact in float16.
inline constexpr float kA = 0.9921875f;
inline constexpr float kB = 0.00390625f;
inline constexpr uint32_t kIntA = 1664525u;
inline constexpr uint32_t kIntB = 1013904223u;

// peak.comp's start of chain `chain` for an invocation whose index modulo 1024 is `seed`.
float FloatStart(uint32_t seed, uint32_t chain);
uint32_t UintStart(uint32_t seed, uint32_t chain);

// `x` rounded to the nearest float16 value (ties to even), as a float: normal and subnormal
// values (the chains never leave float16's range).
float RoundToHalf(double x);

// peak.comp's result for `seed` after `trips` trips: KIND 0 (the sum of 16 float chains), KIND 1
// (the sum of 16 float16 chains, each FMA rounded once to float16), KIND 2 (the XOR of 16
// wrap-around chains).
float FloatPeakResult(uint32_t seed, uint32_t trips);
float HalfPeakResult(uint32_t seed, uint32_t trips);
uint32_t UintPeakResult(uint32_t seed, uint32_t trips);

// shuffle.comp's result for subgroup lane `lane` after `trips` trips.
uint32_t ShuffleResult(uint32_t lane, uint32_t trips);

// shared.comp's result for the invocation `lane` of its workgroup after `trips` trips.
uint32_t SharedResult(uint32_t lane, uint32_t trips);

}  // namespace csbench::ceiling
