// The SPIR-V cache's entries (harness/vulkan/spirv_cache.hpp): read back as written, refused when a
// dependency moved or the entry is damaged, trimmed oldest first. The cache through whole runs
// (a changed include compiled again and checked) is tests/bench/shader_cache_test.sh.
#include "harness/vulkan/spirv_cache.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "harness/base/provenance.hpp"

namespace csbench {
namespace {

namespace fs = std::filesystem;

class SpirvCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = fs::temp_directory_path() / fmt_name();
    fs::create_directories(folder_);
  }
  void TearDown() override { fs::remove_all(folder_); }

  static std::string fmt_name() {
    return "csbench_spirv_cache_test_" + std::to_string(getpid()) + "_" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
  }
  std::string Write(const std::string& name, const std::string& text) const {
    const fs::path path = folder_ / name;
    std::ofstream(path, std::ios::binary) << text;
    return path.string();
  }
  std::string Bytes(const std::string& path) const {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }

  fs::path folder_;
  const std::vector<uint32_t> words_ = {0x07230203, 0x00010300, 7, 42, 0xdeadbeef};
};

TEST_F(SpirvCacheTest, EntriesAreReadBackAsWritten) {
  const std::string include = Write("a.glsl", "#define A 1\n");
  const std::string path = SpirvCachePath("source text", folder_.string());
  ASSERT_FALSE(path.empty()) << "the test executable has no build ID";
  EXPECT_EQ(path, SpirvCachePath("source text", folder_.string()));
  EXPECT_NE(path, SpirvCachePath("source text ", folder_.string()));
  EXPECT_FALSE(ReadCachedSpirv(path));
  ASSERT_TRUE(WriteCachedSpirv(path, words_,
                               {{.path = include, .sha256 = Sha256Hex("#define A 1\n")},
                                {.path = (folder_ / "missing.glsl").string()}}));
  EXPECT_EQ(ReadCachedSpirv(path), words_);
  // No temporary left beside it.
  size_t files = 0;
  for ([[maybe_unused]] const auto& f : fs::directory_iterator(folder_)) ++files;
  EXPECT_EQ(files, 2u);
}

TEST_F(SpirvCacheTest, ADependencyThatMovedIsAMiss) {
  const std::string include = Write("a.glsl", "#define A 1\n");
  const std::string empty_place = (folder_ / "early.glsl").string();
  const std::string path = SpirvCachePath("k", folder_.string());
  ASSERT_TRUE(WriteCachedSpirv(path, words_,
                               {{.path = include, .sha256 = Sha256Hex("#define A 1\n")}, {.path = empty_place}}));
  ASSERT_TRUE(ReadCachedSpirv(path));
  Write("a.glsl", "#define A 2\n");
  EXPECT_FALSE(ReadCachedSpirv(path)) << "an include whose text changed";
  Write("a.glsl", "#define A 1\n");
  ASSERT_TRUE(ReadCachedSpirv(path));
  fs::remove(include);
  EXPECT_FALSE(ReadCachedSpirv(path)) << "an include removed";
  Write("a.glsl", "#define A 1\n");
  // A folder of the name is passed by, as the include search passes it by.
  fs::create_directory(empty_place);
  EXPECT_TRUE(ReadCachedSpirv(path)) << "a folder where the search found nothing";
  fs::remove(empty_place);
  Write("early.glsl", "#define A 3\n");
  EXPECT_FALSE(ReadCachedSpirv(path)) << "a file now where the search found nothing";
}

TEST_F(SpirvCacheTest, ADamagedEntryIsAMiss) {
  const std::string path = SpirvCachePath("k", folder_.string());
  ASSERT_TRUE(WriteCachedSpirv(path, words_, {}));
  const std::string whole = Bytes(path);
  const auto damaged = [&](const std::string& text, const char* what) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
    EXPECT_FALSE(ReadCachedSpirv(path)) << what;
  };
  damaged(whole.substr(0, whole.size() - 1), "a byte short");
  damaged(whole + "x", "a byte more");
  std::string flipped = whole;
  flipped[flipped.size() - 2] ^= 0x40;
  damaged(flipped, "a word changed");
  damaged("csbench-spirv 0" + whole.substr(whole.find('\n')), "another format");
  damaged("", "empty");
  const size_t words_line = whole.find("words\t");
  damaged(whole.substr(0, words_line) + "words\tmany\t" + whole.substr(whole.find('\t', words_line + 6) + 1),
          "a count that is no number");
  damaged(whole.substr(0, words_line) + "odd line\n" + whole.substr(words_line), "a line of no kind");
  std::ofstream(path, std::ios::binary | std::ios::trunc) << whole;
  EXPECT_EQ(ReadCachedSpirv(path), words_) << "as written";
}

TEST_F(SpirvCacheTest, OffOrWithoutAFolderNothingIsKept) {
  SetSpirvCacheEnabled(false);
  EXPECT_TRUE(SpirvCachePath("k", folder_.string()).empty());
  SetSpirvCacheEnabled(true);
  EXPECT_FALSE(SpirvCachePath("k", folder_.string()).empty());
  EXPECT_FALSE(ReadCachedSpirv(""));
  EXPECT_FALSE(WriteCachedSpirv("", words_, {}));
  EXPECT_FALSE(WriteCachedSpirv(SpirvCachePath("k", folder_.string()), words_, {{.path = "a\tb"}}))
      << "a dependency's path that cannot be written as a field";
}

TEST_F(SpirvCacheTest, TrimDropsTheEntriesUnusedLongest) {
  std::vector<std::string> paths;
  const std::vector<uint32_t> big(1024, 0x07230203);  // 4 KiB of words
  const auto now = fs::file_time_type::clock::now();
  for (int i = 0; i < 10; ++i) {
    paths.push_back(SpirvCachePath("entry " + std::to_string(i), folder_.string()));
    ASSERT_TRUE(WriteCachedSpirv(paths.back(), big, {}));
    fs::last_write_time(paths.back(), now - std::chrono::hours(10 - i));  // entry 9 the newest
  }
  // Entry 0, the oldest written, was used last.
  ASSERT_TRUE(ReadCachedSpirv(paths[0]));
  const uint64_t entry = fs::file_size(paths[0]);
  TrimSpirvCache(folder_.string(), 100 * entry);  // within: nothing goes
  for (const std::string& p : paths) EXPECT_TRUE(fs::exists(p));
  TrimSpirvCache(folder_.string(), 4 * entry);  // down to three entries
  std::vector<bool> kept;
  for (const std::string& p : paths) kept.push_back(fs::exists(p));
  EXPECT_EQ(kept, (std::vector<bool>{true, false, false, false, false, false, false, false, true, true}));
}

TEST(SpirvBuildId, TheExecutableHasOne) {
  // Debian's toolchain links a GNU build ID into every executable; without one nothing is cached.
  EXPECT_EQ(ExecutableBuildId().size(), 40u) << ExecutableBuildId();
}

}  // namespace
}  // namespace csbench
