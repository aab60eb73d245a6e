#include "harness/base/cache_file.hpp"

#include <fmt/format.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <system_error>

#include <unistd.h>

namespace csbench {
namespace {

// Fields separated by tabs (no field csbench writes holds one); an empty field counts, the last
// one too.
std::vector<std::string> Fields(const std::string& line) {
  std::vector<std::string> fields;
  size_t start = 0;
  for (size_t tab = line.find('\t'); tab != std::string::npos; tab = line.find('\t', start)) {
    fields.push_back(line.substr(start, tab - start));
    start = tab + 1;
  }
  fields.push_back(line.substr(start));
  return fields;
}

}  // namespace

std::string CacheFilePath(const std::string& name) {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  const char* home = std::getenv("HOME");
  std::filesystem::path folder;
  if (xdg != nullptr && *xdg == '/') {
    folder = std::filesystem::path(xdg) / "csbench";
  } else if (home != nullptr && *home == '/') {
    folder = std::filesystem::path(home) / ".cache" / "csbench";
  } else {
    return {};
  }
  return (folder / name).string();
}

std::optional<std::vector<std::vector<std::string>>> ReadCacheFile(const std::string& path, std::string_view magic,
                                                                   const CacheKey& key) {
  if (path.empty()) return std::nullopt;
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line) || line != magic) return std::nullopt;
  std::map<std::string, std::string> header;
  std::vector<std::vector<std::string>> rows;
  while (std::getline(in, line)) {
    std::vector<std::string> fields = Fields(line);
    if (fields.size() == 2) {
      header[fields[0]] = fields[1];
    } else {
      rows.push_back(std::move(fields));
    }
  }
  if (header["device_key"] != key.device_key || header["driver"] != key.driver ||
      header["revision"] != key.revision) {
    return std::nullopt;
  }
  return rows;
}

bool WriteCacheFile(const std::string& path, std::string_view magic, const CacheKey& key,
                    const std::vector<std::string>& rows) {
  if (path.empty()) return false;
  std::error_code error;
  const std::filesystem::path target(path);
  std::filesystem::create_directories(target.parent_path(), error);
  // Unique among processes and among a process's writes.
  static std::atomic<unsigned> serial = 0;
  const std::string temporary = fmt::format("{}.tmp{}-{}", path, getpid(), serial++);
  {
    std::ofstream out(temporary);
    out << magic << '\n'
        << "device_key\t" << key.device_key << '\n'
        << "driver\t" << key.driver << '\n'
        << "revision\t" << key.revision << '\n';
    for (const std::string& row : rows) out << row << '\n';
    if (!out) error = std::make_error_code(std::errc::io_error);
  }
  if (!error) std::filesystem::rename(temporary, target, error);
  if (error) {
    std::filesystem::remove(temporary, error);
    return false;
  }
  return true;
}

}  // namespace csbench
