// The append family's plain-loop implementation: stream compaction (keep the elements above a
// threshold, packed), the reference every GPU variant is checked against and the CPU fallback
// backend, and the comparison of a GPU's kept values with it.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace csbench::append {

// The threshold that keeps about `keep_percent` percent of values uniform in [0, 1): a value is
// kept when it is above 1 - keep_percent / 100.
float Threshold(uint32_t keep_percent);

// Writes the elements of `values` above `threshold` to the front of `out`, in input order, and
// returns how many it wrote. `out` holds at least values.size() elements.
uint32_t Compact(std::span<const float> values, float threshold, std::span<float> out);

// The same, into a vector of exactly the kept elements.
std::vector<float> Compact(std::span<const float> values, float threshold);

// Empty when `got` holds the values of `want`: element for element when `ordered`, otherwise as
// the same multiset (an append buffer's order depends on which invocation won each atomic).
// Values compare by their bits: they are copies, never results of arithmetic, and an unwritten
// (poisoned, NaN) element must not compare equal to anything. Otherwise, what differs, e.g.
// "0.75 (0x3f400000) is missing, 0.5 (0x3f000000) is extra".
std::string KeptMismatch(std::span<const float> got, std::span<const float> want, bool ordered);

}  // namespace csbench::append
