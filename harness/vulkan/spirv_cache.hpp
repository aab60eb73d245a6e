// The SPIR-V csbench compiled from GLSL and HLSL, kept between processes in the user's cache folder
// ($XDG_CACHE_HOME/csbench/spirv, else ~/.cache/csbench/spirv), so that a run after the first
// compiles nothing it compiled before (on lavapipe, grayscott_image's eight compiles were 1.4 s of
// a 6.5 s run: docs/perf-notes.md, section 29).
//
// An entry is found by a key: every field the words depend on (the source's text, its defines,
// preamble, include folders, entry point, target and optimization) and the compiler itself (the
// executable's build ID: shaderc and glslang are linked into it). An entry also names every file
// its compile opened through #include with a hash of its text, and every place the include search
// looked before it found one: it is taken only while each of those still holds the same text, and
// each place looked at is still empty. Its words carry their own hash; an entry that is damaged,
// truncated, or of another format is a miss, compiled again and written over. Only successful
// compiles are kept.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace csbench {

// What a compile read besides its source: a file it included, with the hash of its text, or a
// place the include search looked at and found nothing (no hash).
struct SpirvDependency {
  std::string path;
  std::optional<std::string> sha256;
  bool operator==(const SpirvDependency&) const = default;
};

// On (the default) or off for the whole process (--shader-cache).
void SetSpirvCacheEnabled(bool enabled);
bool SpirvCacheEnabled();

// The running executable's GNU build ID in hex, empty where it has none (then nothing is cached:
// the compiler that made an entry could not be told apart).
const std::string& ExecutableBuildId();

// The cache file for `key` (any text: it is hashed) in `folder`; empty where the cache is off,
// the executable has no build ID or there is no cache folder. `folder` empty: the user's cache
// folder.
std::string SpirvCachePath(std::string_view key, const std::string& folder = {});

// The words kept at `path`, if its entry is whole and every dependency still holds.
std::optional<std::vector<uint32_t>> ReadCachedSpirv(const std::string& path);

// Keeps `words` and `dependencies` at `path` (a temporary file renamed over it, so that processes
// and threads writing one entry at once leave one whole entry). False where it cannot be written;
// the run goes on without it. The folder is trimmed to kSpirvCacheMaxBytes, oldest entries first.
bool WriteCachedSpirv(const std::string& path, const std::vector<uint32_t>& words,
                      const std::vector<SpirvDependency>& dependencies);

// The most the folder keeps (a tuner's space of 4266 kernels is about 40 MiB).
inline constexpr uint64_t kSpirvCacheMaxBytes = uint64_t{256} << 20;

// Where the entries in `folder` add up to more than `max_bytes`, drops the oldest (by their last
// use: a read touches its entry) until they hold at most three quarters of it. WriteCachedSpirv
// does this once a process, after its first write.
void TrimSpirvCache(const std::string& folder, uint64_t max_bytes);

// How many compiles this process took from the cache and how many it made, for the run's JSON.
struct SpirvCacheCounts {
  uint64_t read = 0;
  uint64_t compiled = 0;
};
SpirvCacheCounts SpirvCacheTally();
void NoteSpirvCache(bool read);

}  // namespace csbench
