// A small file csbench keeps between runs in the user's cache folder ($XDG_CACHE_HOME/csbench,
// else ~/.cache/csbench), for one device: what a run measured (the ceilings, the clock probe's
// best), valid only for the same device key, driver version and csbench revision.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace csbench {

// What a kept file is valid for: a file of another key, driver or revision is read as none.
struct CacheKey {
  std::string device_key;
  std::string driver;
  std::string revision;
};

// "<cache folder>/<name>", or empty where neither XDG_CACHE_HOME nor HOME is an absolute path.
std::string CacheFilePath(const std::string& name);

// The file's rows (each split at its tabs) where its first line is `magic` and its key lines
// (device_key, driver, revision) match `key`; none where the file is missing, damaged or of
// another key. A row never has exactly two fields: those are the key lines.
std::optional<std::vector<std::vector<std::string>>> ReadCacheFile(const std::string& path, std::string_view magic,
                                                                   const CacheKey& key);

// Writes `magic`, the key lines and `rows` (each a whole line without its newline, fields
// separated by tabs) through a temporary file renamed over the old one, so that two processes
// writing at once leave one whole file. False where the folder or file cannot be written.
bool WriteCacheFile(const std::string& path, std::string_view magic, const CacheKey& key,
                    const std::vector<std::string>& rows);

}  // namespace csbench
