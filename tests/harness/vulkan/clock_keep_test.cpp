// The clock probe's kept record: its file in a cache folder of the test's own (XDG_CACHE_HOME).
#include "harness/vulkan/clock_keep.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace csbench {
namespace {

class ClockKeepTest : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = std::filesystem::temp_directory_path() /
              ("csbench-clock-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
               ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(folder_);
    const char* old = std::getenv("XDG_CACHE_HOME");
    had_old_ = old != nullptr;
    if (had_old_) old_ = old;
    setenv("XDG_CACHE_HOME", folder_.c_str(), 1);
  }
  void TearDown() override {
    if (had_old_) {
      setenv("XDG_CACHE_HOME", old_.c_str(), 1);
    } else {
      unsetenv("XDG_CACHE_HOME");
    }
    std::filesystem::remove_all(folder_);
  }
  ClockKeep Keep(std::string revision = "r1", std::string driver = "d1") const {
    return {.path = ClockKeepPath("key"), .key = {.device_key = "key", .driver = driver, .revision = revision}};
  }

  std::filesystem::path folder_;
  std::string old_;
  bool had_old_ = false;
};

TEST_F(ClockKeepTest, LivesBesideTheCeilingsUnderXdgCacheHome) {
  EXPECT_EQ(ClockKeepPath("10de-2330"), (folder_ / "csbench" / "clock-10de-2330.tsv").string());
}

TEST_F(ClockKeepTest, ALaterProcessOfTheSameDeviceDriverAndRevisionReadsWhatWasWritten) {
  EXPECT_FALSE(ReadKeptClock(Keep(), 256, 1u << 22));  // nothing yet
  const KeptClock kept{.iterations = 4096, .best_seconds = 2.0625e-3, .misses = 1};
  ASSERT_TRUE(WriteKeptClock(Keep(), kept));  // the folder is made
  const std::optional<KeptClock> read = ReadKeptClock(Keep(), 256, 1u << 22);
  ASSERT_TRUE(read);
  EXPECT_EQ(*read, kept);
  EXPECT_FALSE(ReadKeptClock(Keep("r2"), 256, 1u << 22));        // another revision
  EXPECT_FALSE(ReadKeptClock(Keep("r1", "d2"), 256, 1u << 22));  // another driver
  EXPECT_FALSE(ReadKeptClock(Keep(), 8192, 1u << 22));           // a size no probe has
}

TEST_F(ClockKeepTest, AnEmptyKeyFieldIsAValue) {
  const ClockKeep keep{.path = ClockKeepPath("key"), .key = {.device_key = "key"}};  // no driver, no revision
  ASSERT_TRUE(WriteKeptClock(keep, {.iterations = 256, .best_seconds = 1e-3}));
  EXPECT_TRUE(ReadKeptClock(keep, 256, 1u << 22));
  EXPECT_FALSE(ReadKeptClock(Keep(), 256, 1u << 22));
}

TEST_F(ClockKeepTest, ADamagedFileIsNeverTrusted) {
  const std::string path = Keep().path;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  const std::string header = "csbench clock 1\ndevice_key\tkey\ndriver\td1\nrevision\tr1\n";
  for (const std::string row : {"probe\t4096\tfast\t0", "probe\t4096\t-1\t0", "probe\t4096\t0.002",
                                "probe\t0\t0.002\t0", "probe\t4096\t0.002\t7", "probe\t4096x\t0.002\t0",
                                "clock\t4096\t0.002\t0"}) {
    std::ofstream(path) << header << row << "\n";
    EXPECT_FALSE(ReadKeptClock(Keep(), 256, 1u << 22)) << row;
  }
  std::ofstream(path) << header << "probe\t4096\t0.002\t0\nprobe\t4096\t0.002\t0\n";  // two records
  EXPECT_FALSE(ReadKeptClock(Keep(), 256, 1u << 22));
  std::ofstream(path) << "something else entirely\n";
  EXPECT_FALSE(ReadKeptClock(Keep(), 256, 1u << 22));
  std::ofstream(path) << header << "probe\t4096\t0.002\t0\n";  // and a whole one is read
  EXPECT_TRUE(ReadKeptClock(Keep(), 256, 1u << 22));
}

TEST_F(ClockKeepTest, AFolderThatCannotBeWrittenIsNoError) {
  std::ofstream(folder_.string() + "-file") << "x";  // a file where the folder would go
  const ClockKeep keep{.path = folder_.string() + "-file/csbench/clock-key.tsv", .key = {}};
  EXPECT_FALSE(WriteKeptClock(keep, {.iterations = 256, .best_seconds = 1e-3}));
  std::filesystem::remove(folder_.string() + "-file");
}

}  // namespace
}  // namespace csbench
