#include "kernels/append/reference.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdio>
#include <functional>
#include <future>
#include <thread>
#include <utility>

namespace csbench::append {
namespace {

// "0.75 (0x3f400000)": the value, and its bits, since two floats may print alike. snprintf, as
// csbench_kernels does not link fmt.
std::string BitsText(uint32_t bits) {
  char text[64];
  std::snprintf(text, sizeof(text), "%.9g (0x%08x)", static_cast<double>(std::bit_cast<float>(bits)), bits);
  return text;
}

// The smallest bit pattern `got` has more often than `want` (extra) and the smallest `want` has
// more often than `got` (missing); 0xffffffff'ffffffff where there is none.
struct Difference {
  uint64_t missing = ~uint64_t{0};
  uint64_t extra = ~uint64_t{0};
};

// Sorts both lists' patterns and walks them together.
Difference SortedDifference(std::span<uint32_t> got, std::span<uint32_t> want) {
  std::sort(got.begin(), got.end());
  std::sort(want.begin(), want.end());
  Difference d;
  size_t i = 0;
  size_t j = 0;
  while ((i < got.size() || j < want.size()) && (d.missing == ~uint64_t{0} || d.extra == ~uint64_t{0})) {
    if (j == want.size() || (i < got.size() && got[i] < want[j])) {
      d.extra = std::min<uint64_t>(d.extra, got[i++]);
    } else if (i == got.size() || want[j] < got[i]) {
      d.missing = std::min<uint64_t>(d.missing, want[j++]);
    } else {
      ++i;
      ++j;
    }
  }
  return d;
}

// The multisets' difference, on the host's threads: each list's patterns are dealt into buckets
// by a hash (every copy of a pattern into one bucket), and the buckets are compared one by one
// (SortedDifference); the smallest of the buckets' differences is the whole lists'. Two sorts of
// 16 Mi kept values take longer than the benchmark measures, even on two threads
// (docs/perf-notes.md, section 18).
Difference MultisetDifference(std::span<const float> got, std::span<const float> want) {
  constexpr uint32_t kBucketBits = 12;
  const auto bucket = [](float v) { return (std::bit_cast<uint32_t>(v) * 0x9e3779b1u) >> (32 - kBucketBits); };
  const size_t threads = std::max<size_t>(1, std::min<size_t>(std::thread::hardware_concurrency(), 64));
  // Runs body(t) for t in [0, tasks) on the host's threads.
  const auto in_parallel = [threads](size_t tasks, const std::function<void(size_t)>& body) {
    std::atomic<size_t> next{0};
    std::vector<std::future<void>> workers;
    for (size_t w = 0; w < std::min(threads, tasks); ++w) {
      workers.push_back(std::async(std::launch::async, [&] {
        for (size_t t = next++; t < tasks; t = next++) body(t);
      }));
    }
    for (std::future<void>& worker : workers) worker.get();
  };
  // Each list's patterns by bucket: a count of each bucket in each slice of the list, then each
  // slice's patterns written where its counts say.
  struct Dealt {
    std::vector<uint32_t> patterns;
    std::vector<size_t> starts;  // bucket b is patterns[starts[b], starts[b + 1])
  };
  constexpr size_t kBuckets = size_t{1} << kBucketBits;
  const auto deal = [&](std::span<const float> values) {
    const size_t slices = threads;
    const size_t per_slice = (values.size() + slices - 1) / slices;
    std::vector<std::vector<size_t>> at(slices, std::vector<size_t>(kBuckets, 0));
    in_parallel(slices, [&](size_t s) {
      for (size_t i = s * per_slice; i < std::min(values.size(), (s + 1) * per_slice); ++i) ++at[s][bucket(values[i])];
    });
    Dealt dealt{.patterns = std::vector<uint32_t>(values.size()), .starts = std::vector<size_t>(kBuckets + 1, 0)};
    size_t position = 0;
    for (size_t b = 0; b < kBuckets; ++b) {
      dealt.starts[b] = position;
      for (size_t s = 0; s < slices; ++s) position += std::exchange(at[s][b], position);
    }
    dealt.starts[kBuckets] = position;
    in_parallel(slices, [&](size_t s) {
      for (size_t i = s * per_slice; i < std::min(values.size(), (s + 1) * per_slice); ++i) {
        dealt.patterns[at[s][bucket(values[i])]++] = std::bit_cast<uint32_t>(values[i]);
      }
    });
    return dealt;
  };
  Dealt g = deal(got);
  Dealt w = deal(want);
  std::vector<Difference> differences(kBuckets);
  in_parallel(kBuckets, [&](size_t b) {
    differences[b] = SortedDifference(std::span(g.patterns).subspan(g.starts[b], g.starts[b + 1] - g.starts[b]),
                                      std::span(w.patterns).subspan(w.starts[b], w.starts[b + 1] - w.starts[b]));
  });
  Difference d;
  for (const Difference& b : differences) {
    d.missing = std::min(d.missing, b.missing);
    d.extra = std::min(d.extra, b.extra);
  }
  return d;
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
  const Difference d = MultisetDifference(got, want);
  if (d.missing == ~uint64_t{0} && d.extra == ~uint64_t{0}) return {};
  const std::string missing = BitsText(static_cast<uint32_t>(d.missing));
  const std::string extra = BitsText(static_cast<uint32_t>(d.extra));
  // Equal sizes: a value missing implies one extra, and the other way round.
  return "the kept values are not the reference's (as a multiset): " + missing + " is missing, " + extra + " is extra";
}

}  // namespace csbench::append
