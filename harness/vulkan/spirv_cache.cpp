#include "harness/vulkan/spirv_cache.hpp"

#include <fmt/format.h>
#include <link.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <system_error>

#include "harness/base/cache_file.hpp"
#include "harness/base/provenance.hpp"

namespace csbench {
namespace {

constexpr std::string_view kMagic = "csbench-spirv 1";

std::atomic<bool> g_enabled = true;
std::atomic<uint64_t> g_read = 0;
std::atomic<uint64_t> g_compiled = 0;

// The GNU build ID note (type 3, owner "GNU") of the main program's PT_NOTE segments.
int FindBuildId(struct dl_phdr_info* info, size_t, void* out) {
  // The first object dl_iterate_phdr reports is the main program.
  auto& id = *static_cast<std::string*>(out);
  for (ElfW(Half) i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& segment = info->dlpi_phdr[i];
    if (segment.p_type != PT_NOTE) continue;
    const auto* at = reinterpret_cast<const unsigned char*>(info->dlpi_addr + segment.p_vaddr);
    const unsigned char* end = at + segment.p_memsz;
    while (at + sizeof(ElfW(Nhdr)) <= end) {
      ElfW(Nhdr) note;
      std::memcpy(&note, at, sizeof note);
      const unsigned char* name = at + sizeof note;
      const unsigned char* desc = name + ((note.n_namesz + 3) & ~3u);
      const unsigned char* next = desc + ((note.n_descsz + 3) & ~3u);
      if (next > end) break;
      if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 && std::memcmp(name, "GNU", 4) == 0) {
        for (ElfW(Word) k = 0; k < note.n_descsz; ++k) id += fmt::format("{:02x}", desc[k]);
        return 1;
      }
      at = next;
    }
  }
  return 1;  // the main program only
}

std::optional<std::string> FileSha256(const std::string& path) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return Sha256Hex(text.str());
}

std::string_view WordBytes(const std::vector<uint32_t>& words) {
  return {reinterpret_cast<const char*>(words.data()), words.size() * sizeof(uint32_t)};
}

}  // namespace

void TrimSpirvCache(const std::string& folder, uint64_t max_bytes) {
  namespace fs = std::filesystem;
  struct Entry {
    fs::file_time_type used;
    uint64_t bytes;
    fs::path path;
  };
  std::vector<Entry> entries;
  uint64_t total = 0;
  std::error_code error;
  for (const fs::directory_entry& file : fs::directory_iterator(folder, error)) {
    std::error_code e;
    if (!file.is_regular_file(e) || file.path().extension() != ".spv") continue;
    const uint64_t bytes = file.file_size(e);
    const fs::file_time_type used = file.last_write_time(e);
    if (e) continue;
    entries.push_back({used, bytes, file.path()});
    total += bytes;
  }
  if (total <= max_bytes) return;
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.used < b.used; });
  for (const Entry& entry : entries) {
    if (total <= max_bytes / 4 * 3) break;
    std::error_code e;
    if (fs::remove(entry.path, e)) total -= entry.bytes;
  }
}

void SetSpirvCacheEnabled(bool enabled) { g_enabled = enabled; }
bool SpirvCacheEnabled() { return g_enabled; }

const std::string& ExecutableBuildId() {
  static const std::string id = [] {
    std::string found;
    dl_iterate_phdr(FindBuildId, &found);
    return found;
  }();
  return id;
}

std::string SpirvCachePath(std::string_view key, const std::string& folder) {
  if (!SpirvCacheEnabled() || ExecutableBuildId().empty()) return {};
  const std::string base = folder.empty() ? CacheFilePath("spirv") : folder;
  if (base.empty()) return {};
  const std::string hash = Sha256Hex(fmt::format("{}\n{}\n{}", kMagic, ExecutableBuildId(), key));
  return (std::filesystem::path(base) / (hash + ".spv")).string();
}

std::optional<std::vector<uint32_t>> ReadCachedSpirv(const std::string& path) {
  if (path.empty()) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  std::string line;
  if (!in || !std::getline(in, line) || line != kMagic) return std::nullopt;
  while (std::getline(in, line)) {
    // "dep\tPATH\tSHA256" (a file included), "none\tPATH" (a place looked at and empty), then
    // "words\tCOUNT\tSHA256" and the words.
    const size_t tab = line.find('\t');
    if (tab == std::string::npos) return std::nullopt;
    const std::string_view kind = std::string_view(line).substr(0, tab);
    std::string rest = line.substr(tab + 1);
    if (kind == "none") {
      // The includer passes by anything it cannot read as a file (a folder of the name too).
      std::error_code error;
      if (std::filesystem::is_regular_file(rest, error)) return std::nullopt;
      continue;
    }
    const size_t second = rest.rfind('\t');
    if (second == std::string::npos) return std::nullopt;
    const std::string first = rest.substr(0, second);
    const std::string sha = rest.substr(second + 1);
    if (kind == "dep") {
      if (FileSha256(first) != sha) return std::nullopt;
      continue;
    }
    if (kind != "words") return std::nullopt;
    uint64_t count = 0;
    try {
      size_t used = 0;
      count = std::stoull(first, &used);
      if (used != first.size() || count == 0 || count > (uint64_t{1} << 28)) return std::nullopt;
    } catch (const std::exception&) {
      return std::nullopt;
    }
    std::vector<uint32_t> words(count);
    if (!in.read(reinterpret_cast<char*>(words.data()), static_cast<std::streamsize>(count * sizeof(uint32_t)))) {
      return std::nullopt;
    }
    if (in.peek() != std::ifstream::traits_type::eof()) return std::nullopt;  // more than it says
    if (Sha256Hex(WordBytes(words)) != sha) return std::nullopt;
    // Touched: the trim drops the entries unused longest.
    std::error_code error;
    std::filesystem::last_write_time(path, std::filesystem::file_time_type::clock::now(), error);
    return words;
  }
  return std::nullopt;
}

bool WriteCachedSpirv(const std::string& path, const std::vector<uint32_t>& words,
                      const std::vector<SpirvDependency>& dependencies) {
  if (path.empty() || words.empty()) return false;
  std::string head = fmt::format("{}\n", kMagic);
  for (const SpirvDependency& dependency : dependencies) {
    // A path with a line break or a tab cannot be written as a field: such a compile is not kept.
    if (dependency.path.find_first_of("\t\n\r") != std::string::npos) return false;
    head += dependency.sha256 ? fmt::format("dep\t{}\t{}\n", dependency.path, *dependency.sha256)
                              : fmt::format("none\t{}\n", dependency.path);
  }
  head += fmt::format("words\t{}\t{}\n", words.size(), Sha256Hex(WordBytes(words)));
  namespace fs = std::filesystem;
  const fs::path target(path);
  std::error_code error;
  fs::create_directories(target.parent_path(), error);
  static std::atomic<unsigned> serial = 0;  // unique among a process's writes; the pid among processes
  const std::string temporary = fmt::format("{}.tmp{}-{}", path, getpid(), serial++);
  {
    std::ofstream out(temporary, std::ios::binary);
    out << head;
    const std::string_view bytes = WordBytes(words);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out) error = std::make_error_code(std::errc::io_error);
  }
  if (!error) fs::rename(temporary, target, error);
  if (error) {
    fs::remove(temporary, error);
    return false;
  }
  static std::once_flag trimmed;
  std::call_once(trimmed, [&] { TrimSpirvCache(target.parent_path().string(), kSpirvCacheMaxBytes); });
  return true;
}

SpirvCacheCounts SpirvCacheTally() { return {.read = g_read, .compiled = g_compiled}; }

void NoteSpirvCache(bool read) { ++(read ? g_read : g_compiled); }

}  // namespace csbench
