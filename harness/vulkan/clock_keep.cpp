#include "harness/vulkan/clock_keep.hpp"

#include <fmt/format.h>

#include <cmath>
#include <exception>
#include <string_view>
#include <utility>
#include <vector>

namespace csbench {
namespace {

constexpr std::string_view kMagic = "csbench clock 1";

// Process-wide, as the ceilings' cache is: a process measures one device (--device=all runs one
// process each), and the file is set once before any device work.
ClockKeep& Keep() {
  static ClockKeep keep;
  return keep;
}

}  // namespace

std::string ClockKeepPath(const std::string& device_key) { return CacheFilePath("clock-" + device_key + ".tsv"); }

void SetClockKeep(ClockKeep keep) { Keep() = std::move(keep); }

const ClockKeep& TheClockKeep() { return Keep(); }

std::optional<KeptClock> ReadKeptClock(const ClockKeep& keep, uint32_t min_iterations, uint32_t max_iterations) {
  const auto rows = ReadCacheFile(keep.path, kMagic, keep.key);
  if (!rows || rows->size() != 1) return std::nullopt;
  const std::vector<std::string>& f = rows->front();
  if (f.size() != 4 || f[0] != "probe") return std::nullopt;
  try {
    size_t used = 0;
    const unsigned long iterations = std::stoul(f[1], &used);
    if (used != f[1].size()) return std::nullopt;
    const double best = std::stod(f[2], &used);
    if (used != f[2].size()) return std::nullopt;
    const unsigned long misses = std::stoul(f[3], &used);
    if (used != f[3].size()) return std::nullopt;
    if (iterations < min_iterations || iterations > max_iterations || !std::isfinite(best) || best <= 0 ||
        misses > 2) {
      return std::nullopt;
    }
    return KeptClock{.iterations = static_cast<uint32_t>(iterations),
                     .best_seconds = best,
                     .misses = static_cast<uint32_t>(misses)};
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

bool WriteKeptClock(const ClockKeep& keep, const KeptClock& kept) {
  return WriteCacheFile(keep.path, kMagic, keep.key,
                        {fmt::format("probe\t{}\t{:.17g}\t{}", kept.iterations, kept.best_seconds, kept.misses)});
}

}  // namespace csbench
