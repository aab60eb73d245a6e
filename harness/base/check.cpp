#include "harness/base/check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>
#include <vector>

#include "harness/base/fork_join.hpp"

namespace csbench {

namespace {

// Compare's work, with the reference of each range of `got` from `want_of(begin, count, scratch)`:
// a pointer to its `count` values, kept in `scratch` where they are made for the call.
using WantOf = std::function<const float*(size_t begin, size_t count, std::vector<float>& scratch)>;

Comparison CompareRanges(std::span<const float> got, const WantOf& want_of, double tolerance, double floor) {
  Comparison c;
  // The worst error of each range, on the host's threads (a 512 MiB array took a second on one),
  // then the first worst of all, as one pass in order would find it. A non-finite value or
  // reference counts as an infinite error.
  struct Worst {
    double error = 0;
    size_t index = 0;
  };
  constexpr size_t kGrain = size_t{1} << 20;
  std::vector<Worst> worst((got.size() + kGrain - 1) / kGrain);
  ParallelFor(worst.size(), 1, [&](size_t begin, size_t end) {
    std::vector<float> scratch;
    for (size_t r = begin; r < end; ++r) {
      Worst w;
      const size_t first = r * kGrain;
      const size_t count = std::min(got.size(), first + kGrain) - first;
      const float* want = want_of(first, count, scratch);
      for (size_t k = 0; k < count; ++k) {
        const size_t i = first + k;
        double error = std::abs(double{got[i]} - want[k]) / std::max(std::abs(double{want[k]}), floor);
        if (!std::isfinite(got[i]) || !std::isfinite(error)) error = std::numeric_limits<double>::infinity();
        if (error > w.error) w = {error, i};
      }
      worst[r] = w;
    }
  });
  for (const Worst& w : worst) {
    if (w.error > c.max_relative_error) {
      c.max_relative_error = w.error;
      c.worst_index = w.index;
    }
  }
  c.passed = c.max_relative_error <= tolerance;
  if (!c.passed) {
    std::vector<float> scratch;
    const float want = *want_of(c.worst_index, 1, scratch);
    c.message = fmt::format("mismatch with the CPU reference: max relative error {:.3g} at index {} (got {}, want {}), "
                            "tolerance {:.1g}",
                            c.max_relative_error, c.worst_index, got[c.worst_index], want, tolerance);
  }
  return c;
}

}  // namespace

Comparison Compare(std::span<const float> got, std::span<const float> want, double tolerance, double floor) {
  if (got.size() != want.size()) {
    Comparison c;
    c.max_relative_error = std::numeric_limits<double>::infinity();
    c.message = fmt::format("result has {} values, reference {}", got.size(), want.size());
    return c;
  }
  return CompareRanges(got, [want](size_t begin, size_t, std::vector<float>&) { return want.data() + begin; },
                       tolerance, floor);
}

Comparison CompareMade(std::span<const float> got, const std::function<void(size_t, std::span<float>)>& make_want,
                       double tolerance, double floor) {
  return CompareRanges(
      got,
      [&make_want](size_t begin, size_t count, std::vector<float>& scratch) {
        scratch.resize(count);
        make_want(begin, scratch);
        return scratch.data();
      },
      tolerance, floor);
}

Comparison CompareWords(std::span<const uint32_t> got, const std::function<uint32_t(size_t)>& want, size_t stride) {
  const size_t count = got.size() / stride;
  std::mutex lock;
  size_t first = count;
  ParallelFor(count, size_t{1} << 20, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      if (got[i * stride] == want(i)) continue;
      std::lock_guard guard(lock);
      first = std::min(first, i);
      return;
    }
  });
  Comparison c;
  c.passed = first == count;
  if (!c.passed) {
    c.worst_index = first;
    c.max_relative_error = 1;
    c.message = fmt::format("invocation {} wrote {:#010x}, expected {:#010x}", first, got[first * stride], want(first));
  }
  return c;
}

}  // namespace csbench
