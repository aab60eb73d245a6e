#include "harness/tune/u_test.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace csbench {
namespace {

// P(U >= u) for the U of m values against n under the null hypothesis, from the number of
// orderings of the m + n values that give each U. Counting uses Mann and Whitney's recurrence:
// the largest value is either one of the m, which then beats all n of the other side, or one of
// the n. Only additions of positive counts, so the far tail (p = 1 / C(100, 50)) keeps its
// precision in doubles where an integer count would overflow.
double ExactUpperTail(size_t m, size_t n, size_t u) {
  // ways[j][k]: the orderings of i values of the first side and j of the second whose U is k, for
  // the i of the current pass.
  std::vector<std::vector<double>> ways(n + 1, std::vector<double>{1.0});
  for (size_t i = 1; i <= m; ++i) {
    std::vector<std::vector<double>> next(n + 1);
    next[0] = {1.0};
    for (size_t j = 1; j <= n; ++j) {
      next[j].assign(i * j + 1, 0.0);
      const std::vector<double>& largest_first = ways[j];       // i - 1 and j values, U shifted by j
      const std::vector<double>& largest_second = next[j - 1];  // i and j - 1 values
      for (size_t k = 0; k < largest_first.size(); ++k) next[j][k + j] += largest_first[k];
      for (size_t k = 0; k < largest_second.size(); ++k) next[j][k] += largest_second[k];
    }
    ways = std::move(next);
  }
  const std::vector<double>& counts = ways[n];
  const double all = std::accumulate(counts.begin(), counts.end(), 0.0);
  double tail = 0;
  for (size_t k = counts.size(); k-- > std::min(u, counts.size());) tail += counts[k];
  return tail / all;
}

}  // namespace

std::optional<double> UTestGreater(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() < kMinUTestRepetitions || b.size() < kMinUTestRepetitions) return std::nullopt;
  auto is_nan = [](double v) { return std::isnan(v); };
  if (std::any_of(a.begin(), a.end(), is_nan) || std::any_of(b.begin(), b.end(), is_nan)) return std::nullopt;

  // (value, from a), sorted, to give every value its rank; tied values share their midrank.
  std::vector<std::pair<double, bool>> all;
  all.reserve(a.size() + b.size());
  for (double v : a) all.emplace_back(v, true);
  for (double v : b) all.emplace_back(v, false);
  std::sort(all.begin(), all.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  double rank_sum_a = 0;
  double tie_term = 0;  // the sum of t^3 - t over groups of t equal values
  bool on_both_sides = false;
  for (size_t first = 0; first < all.size();) {
    size_t last = first;
    size_t from_a = 0;
    while (last < all.size() && all[last].first == all[first].first) from_a += all[last++].second ? 1 : 0;
    const double t = static_cast<double>(last - first);
    const double midrank = (static_cast<double>(first + 1) + static_cast<double>(last)) / 2;
    rank_sum_a += midrank * static_cast<double>(from_a);
    tie_term += t * t * t - t;
    if (from_a != 0 && from_a != last - first) on_both_sides = true;
    first = last;
  }
  if (all.front().first == all.back().first) return 1.0;  // nothing to tell apart

  const double n1 = static_cast<double>(a.size());
  const double n2 = static_cast<double>(b.size());
  const double u1 = rank_sum_a - n1 * (n1 + 1) / 2;
  double p = 0;
  if (!on_both_sides && std::max(a.size(), b.size()) <= kMaxExactUTest) {
    // Ties within one side do not change U (it counts pairs across the sides), so U is a whole
    // number here and the distribution without ties is the right one.
    p = ExactUpperTail(a.size(), b.size(), static_cast<size_t>(std::llround(u1)));
  } else {
    const double n = n1 + n2;
    const double sigma = std::sqrt(n1 * n2 / 12 * ((n + 1) - tie_term / (n * (n - 1))));
    // The continuity correction: subtracting a half counts the mass at U itself in the tail.
    const double z = (u1 - n1 * n2 / 2 - 0.5) / sigma;
    p = 0.5 * std::erfc(z / std::sqrt(2.0));
  }
  return std::clamp(p, 0.0, 1.0);
}

}  // namespace csbench
