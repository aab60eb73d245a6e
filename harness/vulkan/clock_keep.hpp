// The clock probe's best time kept between processes of one device (harness/vulkan/clock_probe.hpp):
// a later process's first raise then knows the time the device's full clocks give, and stops
// when it is there instead of holding the device for a second or two to find it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "harness/base/cache_file.hpp"

namespace csbench {

// What an earlier process left: the probe's size (its runs' iterations, so that the time is
// of the same work), its best time, and how many first raises in a row ended at the cap without
// reaching it. iterations 0: nothing kept.
struct KeptClock {
  uint32_t iterations = 0;
  double best_seconds = 0;
  uint32_t misses = 0;
  bool operator==(const KeptClock&) const = default;
};

// The file a process keeps it in: empty path, none (the probe sizes itself and raises by the
// first-raise rule of a process alone, every time).
struct ClockKeep {
  std::string path;
  CacheKey key;
};

// "<cache folder>/clock-<device_key>.tsv", beside the ceilings' file; empty where there is no
// cache folder.
std::string ClockKeepPath(const std::string& device_key);
// The process's file, set before any device work (bench/main.cpp); none until then.
void SetClockKeep(ClockKeep keep);
const ClockKeep& TheClockKeep();

// The kept record where the file is whole and of the same key, driver and revision, and its
// values are of a probe (iterations from `min_iterations` to `max_iterations`, a positive best);
// none otherwise: a damaged or foreign file is raised over by the rule of a process alone.
std::optional<KeptClock> ReadKeptClock(const ClockKeep& keep, uint32_t min_iterations, uint32_t max_iterations);
// False where the file cannot be written (the next process then raises as if nothing were kept).
bool WriteKeptClock(const ClockKeep& keep, const KeptClock& kept);

}  // namespace csbench
