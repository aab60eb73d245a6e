// The one-sided Mann-Whitney U test the tuner separates its finalists with, computed as
// scripts/csbench/stats.py's utest_pvalues has scipy compute it, so that a tie the tuner reports
// is a tie compare.py would report.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

namespace csbench {

// Fewer repetitions than this on a side give no test (stats.py's MIN_UTEST_REPETITIONS).
inline constexpr size_t kMinUTestRepetitions = 4;
// The level below which a p-value separates two points (stats.py's ALPHA).
inline constexpr double kUTestAlpha = 0.05;
// Up to this many values a side, and with no value on both sides, the p-value is exact
// (stats.py's MAX_EXACT_UTEST).
inline constexpr size_t kMaxExactUTest = 50;

// The p-value of the one-sided alternative that `a`'s values tend to be greater than `b`'s
// (scipy's mannwhitneyu(a, b, alternative="greater")). Exact, from the distribution of U by
// counting, when no value is on both sides and neither side has more than kMaxExactUTest values
// (scipy's method="exact"); otherwise the normal approximation with tie and continuity
// corrections (method="asymptotic"). 1.0 when every value is equal; none with fewer than
// kMinUTestRepetitions values on a side or a NaN among them.
std::optional<double> UTestGreater(const std::vector<double>& a, const std::vector<double>& b);

}  // namespace csbench
