// The tune cache: every point a tuning search measured, kept in an SQLite file beside the run
// history (scripts/history.py), so that an interrupted or widened search resumes where it was
// instead of measuring again. A point's measurements are kept under its device, driver, csbench
// revision and SPIR-V hash, so that a change to any of them measures it anew.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3;

namespace csbench {

struct TuneCacheKey {
  std::string device_key, driver, revision, spirv_hash;
  std::string point;  // the benchmark's name
};

struct TuneCacheEntry {
  std::vector<double> gelems;   // one throughput per repetition (Gelem/s), in measured order
  std::vector<double> seconds;  // one time per iteration per repetition, same order
  double min_time = 0;          // the --benchmark_min_time they were taken with
  double device_seconds = 0;    // wall seconds the measurement of these repetitions took
  std::string failure;          // non-empty: the point was skipped (its check failed, it does not compile...) and why
  int64_t measured_unix = 0;    // when the last of them was measured
};

class TuneCache {
 public:
  // $XDG_DATA_HOME/csbench/tune.sqlite, else ~/.local/share/csbench/tune.sqlite: beside
  // history.sqlite, by the rule of scripts/csbench/history.py's default_db_path (a relative
  // XDG_DATA_HOME is ignored, as the XDG specification says).
  static std::filesystem::path DefaultPath();

  // Opens the cache at `path`, or creates it and its folder. Never throws: a file that cannot be
  // opened or written, or that is not a csbench tune cache of this schema, leaves the cache
  // unusable, with problem() saying why in one line; Find then finds nothing and Store stores
  // nothing. Another process may use the same file at the same time.
  explicit TuneCache(const std::filesystem::path& path);
  ~TuneCache();
  TuneCache(TuneCache&&) noexcept;
  TuneCache& operator=(TuneCache&&) noexcept;
  TuneCache(const TuneCache&) = delete;
  TuneCache& operator=(const TuneCache&) = delete;

  bool usable() const { return db_ != nullptr; }
  const std::string& problem() const { return problem_; }

  // What is kept for `key` at `stage` ("look": a first look of one repetition; "race": the
  // repetitions of the finalists): every repetition stored for them, in the order stored. None
  // where nothing is kept, the cache is unusable, or the row cannot be read.
  std::optional<TuneCacheEntry> Find(const TuneCacheKey& key, std::string_view stage) const;

  // Adds `entry`'s repetitions to those kept for (key, stage), so that a later, longer race
  // extends an earlier one; their device seconds add up. `entry` replaces what is kept instead
  // where either is a failure or their min_time differs (repetitions of another length are not
  // samples of the same thing). Never throws: a store that fails leaves the cache unusable, with
  // problem() saying why, so that the rest of a search measures rather than half-remembers.
  void Store(const TuneCacheKey& key, std::string_view stage, const TuneCacheEntry& entry);

  // How many points (benchmark name and SPIR-V hash) are kept for this device, driver and
  // revision, at any stage; 0 where the cache is unusable.
  size_t Count(const std::string& device_key, const std::string& driver, const std::string& revision) const;

  // The schema version this csbench writes (PRAGMA user_version).
  static constexpr int kSchemaVersion = 1;

 private:
  struct Closer {
    void operator()(sqlite3* db) const;
  };
  // Closes the file and notes why it is no longer used.
  void GiveUp(std::string why);

  std::filesystem::path path_;
  std::unique_ptr<sqlite3, Closer> db_;
  std::string problem_;
};

}  // namespace csbench
