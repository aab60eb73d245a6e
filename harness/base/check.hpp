// Comparison of a GPU result with its CPU reference.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>

namespace csbench {

struct Comparison {
  double max_relative_error = 0;  // infinity where a value is NaN/inf or the sizes differ
  size_t worst_index = 0;
  bool passed = false;
  std::string message;  // empty when passed
};

// Largest |got - want| / max(|want|, floor) over all elements; passes when it is at most
// `tolerance`. A non-finite value (an unwritten, poisoned output) fails at its index.
Comparison Compare(std::span<const float> got, std::span<const float> want, double tolerance,
                   double floor = 1e-6);

// The same, with the reference made range by range as it is compared, on the host's threads:
// `make_want(begin, out)` writes the reference of got[begin, begin + out.size()) into `out` (and
// must be safe to call from several threads at once). No array of the whole reference is made: at
// 134M floats, allocating and filling one cost more than the comparison.
Comparison CompareMade(std::span<const float> got, const std::function<void(size_t, std::span<float>)>& make_want,
                       double tolerance, double floor = 1e-6);

// The first of `got`'s words (every `stride`-th, from the first) that is not `want(i)` for
// invocation i, as a failed Comparison naming both; passed where none differs. Compared on the
// host's threads: `want` must be safe to call from several at once.
Comparison CompareWords(std::span<const uint32_t> got, const std::function<uint32_t(size_t)>& want,
                        size_t stride = 1);

// The bit pattern outputs are filled with before a check run: a quiet NaN, so an element no
// invocation wrote cannot pass.
inline constexpr uint32_t kPoison = 0x7fc0dead;

}  // namespace csbench
