#include "harness/measure/ceilings.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace csbench {
namespace {

// A cache file in a folder of the test's own, removed after it.
class CeilingsCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = std::filesystem::temp_directory_path() /
              ("csbench-ceilings-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
               ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(folder_);
    path_ = (folder_ / "sub" / "ceilings-key.tsv").string();
  }
  void TearDown() override {
    SetCeilingsCache({});
    std::filesystem::remove_all(folder_);
  }
  CeilingsCache Cache(bool reuse, std::string revision = "r1", std::string driver = "d1") const {
    return {.path = path_, .device_key = "key", .driver = driver, .revision = revision, .reuse = reuse};
  }

  std::filesystem::path folder_;
  std::string path_;
};

TEST_F(CeilingsCacheTest, AMeasuredCeilingIsReusedByALaterRunOfTheSameDeviceDriverAndRevision) {
  SetCeilingsCache(Cache(false));
  EXPECT_FALSE(ReusedCeiling("copy"));  // measure mode never reuses
  NoteCeiling("copy", 1234.5, "GB/s", "a copy");
  ASSERT_TRUE(std::filesystem::exists(path_));  // the folder is made
  SetCeilingsCache(Cache(true));
  const std::optional<double> reused = ReusedCeiling("copy");
  ASSERT_TRUE(reused);
  EXPECT_DOUBLE_EQ(*reused, 1234.5);
  EXPECT_FALSE(ReusedCeiling("read"));  // never measured: measured now
  bool found = false;
  for (const NotedCeiling& c : NotedCeilings()) {
    if (c.name != "copy") continue;
    found = true;
    EXPECT_GE(c.age_seconds, 0);  // noted as reused, with its age
    EXPECT_LT(c.age_seconds, 600);
    EXPECT_EQ(c.unit, "GB/s");
  }
  EXPECT_TRUE(found);
}

TEST_F(CeilingsCacheTest, AnotherRevisionOrDriverMeasuresAgain) {
  SetCeilingsCache(Cache(false));
  NoteCeiling("copy", 10, "GB/s", "a copy");
  SetCeilingsCache(Cache(true, "r2"));
  EXPECT_FALSE(ReusedCeiling("copy"));
  SetCeilingsCache(Cache(true, "r1", "d2"));
  EXPECT_FALSE(ReusedCeiling("copy"));
  SetCeilingsCache(Cache(true, "r1", "d1"));
  EXPECT_TRUE(ReusedCeiling("copy"));
}

TEST_F(CeilingsCacheTest, ADamagedFileIsMeasuredOverNeverTrusted) {
  std::filesystem::create_directories(std::filesystem::path(path_).parent_path());
  std::ofstream(path_) << "csbench ceilings 1\ndevice_key\tkey\ndriver\td1\nrevision\tr1\n"
                       << "ceiling\tcopy\tnot-a-number\tGB/s\t0\tx\n";
  SetCeilingsCache(Cache(true));
  EXPECT_FALSE(ReusedCeiling("copy"));
  std::ofstream(path_) << "something else entirely\n";
  SetCeilingsCache(Cache(true));
  EXPECT_FALSE(ReusedCeiling("copy"));
}

TEST_F(CeilingsCacheTest, AutoReusesOnlyACeilingMeasuredWithinItsAge) {
  // A ceiling measured at the epoch, and one now.
  std::filesystem::create_directories(std::filesystem::path(path_).parent_path());
  std::ofstream(path_) << "csbench ceilings 1\ndevice_key\tkey\ndriver\td1\nrevision\tr1\n"
                       << "ceiling\tcopy\t10\tGB/s\t0.000\tan old copy\n";
  CeilingsCache cache = Cache(true);
  cache.max_age_seconds = kAutoReuseSeconds;
  SetCeilingsCache(cache);
  EXPECT_FALSE(ReusedCeiling("copy"));  // older than a day: measured again
  NoteCeiling("copy", 20, "GB/s", "a new copy");
  SetCeilingsCache(cache);
  const std::optional<double> reused = ReusedCeiling("copy");
  ASSERT_TRUE(reused);
  EXPECT_DOUBLE_EQ(*reused, 20);
  // --ceilings=reuse takes any age.
  std::ofstream(path_) << "csbench ceilings 1\ndevice_key\tkey\ndriver\td1\nrevision\tr1\n"
                       << "ceiling\tcopy\t10\tGB/s\t0.000\tan old copy\n";
  SetCeilingsCache(Cache(true));
  EXPECT_TRUE(ReusedCeiling("copy"));
}

TEST_F(CeilingsCacheTest, ReusingSizesTakesTheCacheAndFootprintButMeasuresEveryRate) {
  SetCeilingsCache(Cache(false));
  NoteCeiling("copy", 20, "GB/s", "a copy");
  NoteCeiling("last_level_cache", 8, "MiB", "a cache");
  NoteCeiling("cold_footprint", 32, "MiB", "a footprint");
  CeilingsCache sizes = Cache(false);
  sizes.reuse_sizes = true;
  sizes.max_age_seconds = kAutoReuseSeconds;
  SetCeilingsCache(sizes);
  EXPECT_FALSE(ReusedCeiling("copy"));  // a rate: measured
  const std::optional<double> cache = ReusedCeiling("last_level_cache");
  const std::optional<double> footprint = ReusedCeiling("cold_footprint");
  ASSERT_TRUE(cache && footprint);
  EXPECT_DOUBLE_EQ(*cache, 8);
  EXPECT_DOUBLE_EQ(*footprint, 32);
  // Another revision's sizes are not this one's.
  sizes.revision = "r2";
  SetCeilingsCache(sizes);
  EXPECT_FALSE(ReusedCeiling("last_level_cache"));
  EXPECT_TRUE(IsSizeCeiling("cold_footprint"));
  EXPECT_FALSE(IsSizeCeiling("read"));
}

TEST(CeilingsCachePath, FollowsXdgCacheHome) {
  const char* old = std::getenv("XDG_CACHE_HOME");
  const std::string kept = old != nullptr ? old : "";
  setenv("XDG_CACHE_HOME", "/somewhere", 1);
  EXPECT_EQ(CeilingsCachePath("10de-2330"), "/somewhere/csbench/ceilings-10de-2330.tsv");
  if (old != nullptr) {
    setenv("XDG_CACHE_HOME", kept.c_str(), 1);
  } else {
    unsetenv("XDG_CACHE_HOME");
  }
}

}  // namespace
}  // namespace csbench
