#include "kernels/append/reference.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdio>
#include <future>

namespace csbench::append {
namespace {

// "0.75 (0x3f400000)": the value, and its bits, since two floats may print alike. snprintf, as
// csbench_kernels does not link fmt.
std::string BitsText(uint32_t bits) {
  char text[64];
  std::snprintf(text, sizeof(text), "%.9g (0x%08x)", static_cast<double>(std::bit_cast<float>(bits)), bits);
  return text;
}

// The values' bit patterns in ascending order, by a least-significant-digit radix sort (four
// passes of 8 bits): the check sorts up to 16 Mi values twice for every benchmark, which
// std::sort takes over a second for, and bit patterns need no float order (a NaN sorts like
// any other pattern).
std::vector<uint32_t> SortedBits(std::span<const float> values) {
  std::vector<uint32_t> bits(values.size());
  std::transform(values.begin(), values.end(), bits.begin(), [](float v) { return std::bit_cast<uint32_t>(v); });
  std::vector<uint32_t> scratch(bits.size());
  for (uint32_t shift = 0; shift < 32; shift += 8) {
    std::array<size_t, 257> start{};  // start[d + 1]: how many patterns have digit d
    for (uint32_t b : bits) ++start[((b >> shift) & 0xff) + 1];
    for (size_t d = 1; d < start.size(); ++d) start[d] += start[d - 1];
    for (uint32_t b : bits) scratch[start[(b >> shift) & 0xff]++] = b;  // stable: keeps the lower digits' order
    bits.swap(scratch);
  }
  return bits;
}

}  // namespace

float Threshold(uint32_t keep_percent) { return 1.0f - static_cast<float>(keep_percent) / 100.0f; }

uint32_t Compact(std::span<const float> values, float threshold, std::span<float> out) {
  uint32_t kept = 0;
  for (float v : values) {
    if (v > threshold) out[kept++] = v;
  }
  return kept;
}

std::vector<float> Compact(std::span<const float> values, float threshold) {
  std::vector<float> out(values.size());
  out.resize(Compact(values, threshold, out));
  return out;
}

std::string KeptMismatch(std::span<const float> got, std::span<const float> want, bool ordered) {
  if (got.size() != want.size()) {
    return std::to_string(got.size()) + " values kept, the reference keeps " + std::to_string(want.size());
  }
  if (ordered) {
    for (size_t i = 0; i < got.size(); ++i) {
      const uint32_t g = std::bit_cast<uint32_t>(got[i]);
      const uint32_t w = std::bit_cast<uint32_t>(want[i]);
      if (g != w) return "kept value " + std::to_string(i) + " is " + BitsText(g) + ", the reference's " + BitsText(w);
    }
    return {};
  }
  // Walk both sorted lists together: the first value one has more often than the other.
  // The two sorts at once (a check of 16M kept values spent over a second in them on one thread).
  auto sorted_want = std::async(std::launch::async, [want] { return SortedBits(want); });
  const std::vector<uint32_t> g = SortedBits(got);
  const std::vector<uint32_t> w = sorted_want.get();
  std::string missing;
  std::string extra;
  size_t i = 0;
  size_t j = 0;
  while ((i < g.size() || j < w.size()) && (missing.empty() || extra.empty())) {
    if (j == w.size() || (i < g.size() && g[i] < w[j])) {
      if (extra.empty()) extra = BitsText(g[i]);
      ++i;
    } else if (i == g.size() || w[j] < g[i]) {
      if (missing.empty()) missing = BitsText(w[j]);
      ++j;
    } else {
      ++i;
      ++j;
    }
  }
  if (missing.empty() && extra.empty()) return {};
  // Equal sizes: a value missing implies one extra, and the other way round.
  return "the kept values are not the reference's (as a multiset): " + missing + " is missing, " + extra + " is extra";
}

}  // namespace csbench::append
