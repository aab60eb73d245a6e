#include "harness/tune/tune_cache.hpp"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include "tests/harness/temp_folder.hpp"

namespace csbench {
namespace {

namespace fs = std::filesystem;

// A fresh folder of the test's own, removed after it.
class TempFolder : public testing::TempFolder {
 public:
  TempFolder() : testing::TempFolder("csbench_tune_cache") {}
};

// Sets an environment variable for one scope, restoring what was there.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value != nullptr) {
      setenv(name, value, 1);
    } else {
      unsetenv(name);
    }
  }
  ~ScopedEnv() {
    if (old_) {
      setenv(name_, old_->c_str(), 1);
    } else {
      unsetenv(name_);
    }
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

TuneCacheKey Key(std::string point = "reduction/prefetch4/wg8x32/domain1920x1080") {
  return {.device_key = "nvidia-h200-10de-2335",
          .driver = "570.86.15",
          .revision = "abc1234",
          .spirv_hash = "5f3a9c",
          .point = std::move(point)};
}

TuneCacheEntry Measured(std::vector<double> gelems, double min_time = 0.1, int64_t when = 1700000000) {
  TuneCacheEntry entry;
  entry.min_time = min_time;
  entry.device_seconds = 0.5;
  entry.measured_unix = when;
  for (double g : gelems) {
    entry.gelems.push_back(g);
    entry.seconds.push_back(1.0 / g);
  }
  return entry;
}

void ExecuteSql(const fs::path& path, const char* sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  EXPECT_EQ(sqlite3_exec(db, sql, nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
  sqlite3_close(db);
}

TEST(TuneCache, CreatesItsFolderAndRoundTrips) {
  TempFolder temp;
  const fs::path path = temp.path() / "a" / "b" / "tune.sqlite";
  {
    TuneCache cache(path);
    ASSERT_TRUE(cache.usable()) << cache.problem();
    EXPECT_EQ(cache.problem(), "");
    EXPECT_FALSE(cache.Find(Key(), "look").has_value());
    cache.Store(Key(), "look", Measured({123.25}));
  }
  EXPECT_TRUE(fs::is_regular_file(path));
  TuneCache reopened(path);  // kept in the file, not in the object
  ASSERT_TRUE(reopened.usable()) << reopened.problem();
  const std::optional<TuneCacheEntry> found = reopened.Find(Key(), "look");
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->gelems, std::vector<double>{123.25});
  EXPECT_EQ(found->seconds, std::vector<double>{1.0 / 123.25});  // exactly: the JSON text round-trips
  EXPECT_EQ(found->min_time, 0.1);
  EXPECT_EQ(found->device_seconds, 0.5);
  EXPECT_EQ(found->failure, "");
  EXPECT_EQ(found->measured_unix, 1700000000);
  EXPECT_FALSE(reopened.Find(Key(), "race").has_value());  // another stage
}

TEST(TuneCache, WritesAheadSoThatReadersDoNotWait) {
  TempFolder temp;
  const fs::path path = temp.path() / "tune.sqlite";
  TuneCache cache(path);
  ASSERT_TRUE(cache.usable()) << cache.problem();
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  sqlite3_stmt* mode = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &mode, nullptr), SQLITE_OK);
  ASSERT_EQ(sqlite3_step(mode), SQLITE_ROW);
  EXPECT_STREQ(reinterpret_cast<const char*>(sqlite3_column_text(mode, 0)), "wal");
  sqlite3_finalize(mode);
  sqlite3_close(db);
}

TEST(TuneCache, StoreAppendsRepetitions) {
  TempFolder temp;
  TuneCache cache(temp.path() / "tune.sqlite");
  ASSERT_TRUE(cache.usable()) << cache.problem();
  cache.Store(Key(), "race", Measured({10, 11}, 0.1, 100));
  cache.Store(Key(), "race", Measured({12}, 0.1, 200));
  const std::optional<TuneCacheEntry> found = cache.Find(Key(), "race");
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->gelems, (std::vector<double>{10, 11, 12}));
  EXPECT_EQ(found->seconds, (std::vector<double>{1.0 / 10, 1.0 / 11, 1.0 / 12}));
  EXPECT_DOUBLE_EQ(found->device_seconds, 1.0);
  EXPECT_EQ(found->measured_unix, 200);
}

TEST(TuneCache, AnotherMinTimeReplaces) {
  TempFolder temp;
  TuneCache cache(temp.path() / "tune.sqlite");
  cache.Store(Key(), "race", Measured({10, 11}, 0.1));
  cache.Store(Key(), "race", Measured({20}, 0.5));
  const std::optional<TuneCacheEntry> found = cache.Find(Key(), "race");
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->gelems, std::vector<double>{20});
  EXPECT_EQ(found->min_time, 0.5);
}

TEST(TuneCache, FailureReplacesAndIsReplaced) {
  TempFolder temp;
  TuneCache cache(temp.path() / "tune.sqlite");
  cache.Store(Key(), "look", Measured({10}));
  TuneCacheEntry failed;
  failed.min_time = 0.1;
  failed.failure = "check failed: 3 of 1024 values differ";
  cache.Store(Key(), "look", failed);
  std::optional<TuneCacheEntry> found = cache.Find(Key(), "look");
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->failure, "check failed: 3 of 1024 values differ");
  EXPECT_TRUE(found->gelems.empty());
  cache.Store(Key(), "look", Measured({30}));
  found = cache.Find(Key(), "look");
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->failure, "");
  EXPECT_EQ(found->gelems, std::vector<double>{30});
}

TEST(TuneCache, EveryPartOfTheKeyCounts) {
  TempFolder temp;
  TuneCache cache(temp.path() / "tune.sqlite");
  cache.Store(Key(), "look", Measured({10}));
  TuneCacheKey other = Key();
  other.revision = "def5678";
  EXPECT_FALSE(cache.Find(other, "look").has_value());
  other = Key();
  other.driver = "575.0";
  EXPECT_FALSE(cache.Find(other, "look").has_value());
  other = Key();
  other.device_key = "amd-radeon";
  EXPECT_FALSE(cache.Find(other, "look").has_value());
  other = Key();
  other.spirv_hash = "000000";
  EXPECT_FALSE(cache.Find(other, "look").has_value());
  EXPECT_FALSE(cache.Find(Key("reduction/prefetch4/wg8x32/domain640x480"), "look").has_value());
  EXPECT_TRUE(cache.Find(Key(), "look").has_value());
}

TEST(TuneCache, CountsPointsOfOneDeviceDriverAndRevision) {
  TempFolder temp;
  TuneCache cache(temp.path() / "tune.sqlite");
  EXPECT_EQ(cache.Count("nvidia-h200-10de-2335", "570.86.15", "abc1234"), 0u);
  cache.Store(Key("a"), "look", Measured({1}));
  cache.Store(Key("a"), "race", Measured({1, 2, 3}));  // the same point at two stages
  cache.Store(Key("b"), "look", Measured({1}));
  EXPECT_EQ(cache.Count("nvidia-h200-10de-2335", "570.86.15", "abc1234"), 2u);
  EXPECT_EQ(cache.Count("nvidia-h200-10de-2335", "570.86.15", "def5678"), 0u);
}

TEST(TuneCache, StrangersNamesAreData) {
  TempFolder temp;
  TuneCache cache(temp.path() / "tune.sqlite");
  const TuneCacheKey odd{.device_key = "dev'ice\"; DROP TABLE measurements; --",
                         .driver = "",
                         .revision = "r\n1",
                         .spirv_hash = "h\\x00",
                         .point = "fam/vari\xC3\xA4nt/%s?"};
  cache.Store(odd, "look", Measured({5}));
  ASSERT_TRUE(cache.usable()) << cache.problem();
  const std::optional<TuneCacheEntry> found = cache.Find(odd, "look");
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->gelems, std::vector<double>{5});
  EXPECT_EQ(cache.Count(odd.device_key, "", "r\n1"), 1u);
}

TEST(TuneCache, TwoHandlesOnOneFileSeeEachOther) {
  TempFolder temp;
  TuneCache first(temp.path() / "tune.sqlite");
  TuneCache second(temp.path() / "tune.sqlite");
  ASSERT_TRUE(first.usable() && second.usable());
  first.Store(Key(), "race", Measured({1}));
  second.Store(Key(), "race", Measured({2}));
  const std::optional<TuneCacheEntry> found = first.Find(Key(), "race");
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->gelems, (std::vector<double>{1, 2}));
}

TEST(TuneCache, TwoProcessesAppendingLoseNothing) {
  TempFolder temp;
  const fs::path path = temp.path() / "tune.sqlite";
  constexpr int kStores = 40;
  auto append = [&](double value) {
    TuneCache cache(path);
    for (int i = 0; i < kStores; ++i) cache.Store(Key(), "race", Measured({value}));
    return cache.usable();
  };
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) _exit(append(2) ? 0 : 1);
  const bool parent_ok = append(1);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_TRUE(parent_ok);
  TuneCache cache(path);
  const std::optional<TuneCacheEntry> found = cache.Find(Key(), "race");
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->gelems.size(), 2u * kStores);
}

TEST(TuneCache, DamagedFileIsUnusable) {
  TempFolder temp;
  const fs::path path = temp.path() / "tune.sqlite";
  {
    std::ofstream garbage(path, std::ios::binary);
    for (int i = 0; i < 4096; ++i) garbage.put(static_cast<char>((i * 131 + 7) % 256));
  }
  TuneCache cache(path);
  EXPECT_FALSE(cache.usable());
  EXPECT_NE(cache.problem().find(path.string()), std::string::npos) << cache.problem();
  EXPECT_NE(cache.problem().find("not a database"), std::string::npos) << cache.problem();
  EXPECT_EQ(cache.problem().find('\n'), std::string::npos);
  EXPECT_FALSE(cache.Find(Key(), "look").has_value());
  cache.Store(Key(), "look", Measured({1}));  // stores nothing, and does not crash
  EXPECT_EQ(cache.Count("nvidia-h200-10de-2335", "570.86.15", "abc1234"), 0u);
  EXPECT_EQ(fs::file_size(path), 4096u);  // left as it was
}

TEST(TuneCache, AnotherSqliteDatabaseIsLeftAlone) {
  TempFolder temp;
  const fs::path path = temp.path() / "history.sqlite";
  ExecuteSql(path, "CREATE TABLE runs (id INTEGER PRIMARY KEY); INSERT INTO runs VALUES (7);");
  TuneCache cache(path);
  EXPECT_FALSE(cache.usable());
  EXPECT_NE(cache.problem().find("not a csbench tune cache"), std::string::npos) << cache.problem();
  // Its table is all it still holds.
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  sqlite3_stmt* tables = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db, "SELECT group_concat(name) FROM sqlite_master", -1, &tables, nullptr), SQLITE_OK);
  ASSERT_EQ(sqlite3_step(tables), SQLITE_ROW);
  EXPECT_STREQ(reinterpret_cast<const char*>(sqlite3_column_text(tables, 0)), "runs");
  sqlite3_finalize(tables);
  sqlite3_close(db);
}

TEST(TuneCache, AnotherSchemaVersionIsUnusable) {
  TempFolder temp;
  const fs::path path = temp.path() / "tune.sqlite";
  { TuneCache made(path); }
  ExecuteSql(path, "PRAGMA user_version = 2");
  TuneCache cache(path);
  EXPECT_FALSE(cache.usable());
  EXPECT_NE(cache.problem().find("schema version 2"), std::string::npos) << cache.problem();
}

TEST(TuneCache, UnwritableFolderIsUnusable) {
  TempFolder temp;
  // A folder that cannot be made even by root: its parent is a plain file.
  std::ofstream(temp.path() / "file") << "x";
  TuneCache cache(temp.path() / "file" / "csbench" / "tune.sqlite");
  EXPECT_FALSE(cache.usable());
  EXPECT_NE(cache.problem().find("cannot create its folder"), std::string::npos) << cache.problem();
  cache.Store(Key(), "look", Measured({1}));
  EXPECT_FALSE(cache.Find(Key(), "look").has_value());
}

TEST(TuneCache, ReadOnlyFolderIsUnusable) {
  if (geteuid() == 0) GTEST_SKIP() << "root writes into a read-only folder";
  TempFolder temp;
  const fs::path folder = temp.path() / "locked";
  fs::create_directory(folder);
  fs::permissions(folder, fs::perms::owner_read | fs::perms::owner_exec);
  TuneCache cache(folder / "tune.sqlite");
  EXPECT_FALSE(cache.usable());
  EXPECT_FALSE(cache.problem().empty());
  fs::permissions(folder, fs::perms::owner_all);
}

TEST(TuneCache, DefaultPathFollowsXdgDataHome) {
  ScopedEnv home("HOME", "/home/tester");
  {
    ScopedEnv xdg("XDG_DATA_HOME", "/data/xdg");
    EXPECT_EQ(TuneCache::DefaultPath(), fs::path("/data/xdg/csbench/tune.sqlite"));
  }
  {
    ScopedEnv xdg("XDG_DATA_HOME", "relative/xdg");  // ignored, as the XDG specification says
    EXPECT_EQ(TuneCache::DefaultPath(), fs::path("/home/tester/.local/share/csbench/tune.sqlite"));
  }
  {
    ScopedEnv xdg("XDG_DATA_HOME", nullptr);
    EXPECT_EQ(TuneCache::DefaultPath(), fs::path("/home/tester/.local/share/csbench/tune.sqlite"));
  }
}

}  // namespace
}  // namespace csbench
