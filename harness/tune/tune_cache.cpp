#include "harness/tune/tune_cache.hpp"

#include <fmt/format.h>
#include <pwd.h>
#include <sqlite3.h>
#include <unistd.h>

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <system_error>
#include <utility>

namespace csbench {
namespace {

// PRAGMA application_id of a tune cache ("csbt"): tells it from any other SQLite file that an
// unlucky --tune-cache might name, which it must never write into.
constexpr int kApplicationId = 0x63736274;
// How long a write waits for another process's transaction before the cache gives up.
constexpr int kBusyTimeoutMs = 10000;

constexpr const char* kCreateSchema = R"sql(
CREATE TABLE IF NOT EXISTS measurements (
  device_key TEXT NOT NULL,
  driver TEXT NOT NULL,
  revision TEXT NOT NULL,
  spirv_hash TEXT NOT NULL,
  point TEXT NOT NULL,
  stage TEXT NOT NULL,
  gelems TEXT NOT NULL,
  seconds TEXT NOT NULL,
  min_time REAL NOT NULL,
  device_seconds REAL NOT NULL,
  failure TEXT NOT NULL,
  measured_unix INTEGER NOT NULL,
  PRIMARY KEY (device_key, driver, revision, spirv_hash, point, stage)
) WITHOUT ROWID;
)sql";

// What goes wrong inside the cache; caught at its public functions, which never throw.
class CacheFailure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One line of SQLite's message (they are one line, but the file name in some is not ours).
std::string OneLine(std::string text) {
  for (char& c : text) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return text;
}

class Statement {
 public:
  Statement(sqlite3* db, std::string_view sql) : db_(db) {
    if (sqlite3_prepare_v2(db, sql.data(), static_cast<int>(sql.size()), &statement_, nullptr) != SQLITE_OK) {
      throw CacheFailure(sqlite3_errmsg(db));
    }
  }
  ~Statement() { sqlite3_finalize(statement_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  Statement& Bind(std::string_view text) {
    // A null pointer would bind SQL NULL, which the NOT NULL columns refuse; "" is the empty text.
    Check(sqlite3_bind_text(statement_, ++bound_, text.empty() ? "" : text.data(), static_cast<int>(text.size()),
                            SQLITE_TRANSIENT));
    return *this;
  }
  Statement& Bind(double value) {
    Check(sqlite3_bind_double(statement_, ++bound_, value));
    return *this;
  }
  Statement& Bind(int64_t value) {
    Check(sqlite3_bind_int64(statement_, ++bound_, value));
    return *this;
  }
  // True while there is a row to read.
  bool Step() {
    const int rc = sqlite3_step(statement_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    throw CacheFailure(sqlite3_errmsg(db_));
  }
  std::string Text(int column) const {
    const unsigned char* text = sqlite3_column_text(statement_, column);
    return text == nullptr ? ""
                           : std::string(reinterpret_cast<const char*>(text), sqlite3_column_bytes(statement_, column));
  }
  double Real(int column) const { return sqlite3_column_double(statement_, column); }
  int64_t Integer(int column) const { return sqlite3_column_int64(statement_, column); }

 private:
  void Check(int rc) const {
    if (rc != SQLITE_OK) throw CacheFailure(sqlite3_errmsg(db_));
  }

  sqlite3* db_;
  sqlite3_stmt* statement_ = nullptr;
  int bound_ = 0;
};

void Execute(sqlite3* db, const char* sql) {
  char* message = nullptr;
  if (sqlite3_exec(db, sql, nullptr, nullptr, &message) != SQLITE_OK) {
    const std::string why = message != nullptr ? message : sqlite3_errmsg(db);
    sqlite3_free(message);
    throw CacheFailure(why);
  }
}

int64_t PragmaValue(sqlite3* db, const char* name) {
  Statement pragma(db, fmt::format("PRAGMA {}", name));
  return pragma.Step() ? pragma.Integer(0) : 0;
}

// A write transaction taken at its start (BEGIN IMMEDIATE), so that two processes wait for each
// other there rather than fail at the write of a read they both did; rolled back unless committed.
class Transaction {
 public:
  explicit Transaction(sqlite3* db) : db_(db) { Execute(db, "BEGIN IMMEDIATE"); }
  ~Transaction() {
    if (db_ != nullptr) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
  }
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  void Commit() {
    Execute(db_, "COMMIT");
    db_ = nullptr;
  }

 private:
  sqlite3* db_;
};

constexpr std::string_view kWhereKey =
    " WHERE device_key = ? AND driver = ? AND revision = ? AND spirv_hash = ? AND point = ? AND stage = ?";

void BindKey(Statement& statement, const TuneCacheKey& key, std::string_view stage) {
  statement.Bind(key.device_key).Bind(key.driver).Bind(key.revision).Bind(key.spirv_hash).Bind(key.point).Bind(stage);
}

// Samples kept as a JSON array of numbers; none where the text is not one.
std::optional<std::vector<double>> ParseSamples(const std::string& text) {
  const nlohmann::json parsed = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!parsed.is_array()) return std::nullopt;
  std::vector<double> samples;
  samples.reserve(parsed.size());
  for (const nlohmann::json& value : parsed) {
    if (!value.is_number()) return std::nullopt;
    samples.push_back(value.get<double>());
  }
  return samples;
}

std::string SamplesText(const std::vector<double>& samples) { return nlohmann::json(samples).dump(); }

// The row kept for (key, stage); none where there is none or its samples cannot be read (a row
// damaged by hand counts as not measured). Throws CacheFailure where SQLite fails.
std::optional<TuneCacheEntry> ReadEntry(sqlite3* db, const TuneCacheKey& key, std::string_view stage) {
  Statement select(db, std::string("SELECT gelems, seconds, min_time, device_seconds, failure, measured_unix "
                                   "FROM measurements") +
                           std::string(kWhereKey));
  BindKey(select, key, stage);
  if (!select.Step()) return std::nullopt;
  std::optional<std::vector<double>> gelems = ParseSamples(select.Text(0));
  std::optional<std::vector<double>> seconds = ParseSamples(select.Text(1));
  if (!gelems || !seconds) return std::nullopt;
  return TuneCacheEntry{.gelems = std::move(*gelems),
                        .seconds = std::move(*seconds),
                        .min_time = select.Real(2),
                        .device_seconds = select.Real(3),
                        .failure = select.Text(4),
                        .measured_unix = select.Integer(5)};
}

}  // namespace

void TuneCache::Closer::operator()(sqlite3* db) const { sqlite3_close_v2(db); }

std::filesystem::path TuneCache::DefaultPath() {
  std::filesystem::path base;
  if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg != nullptr && std::filesystem::path(xdg).is_absolute()) {
    base = xdg;
  } else {
    // As Python's expanduser("~"): $HOME, else the user's entry in the password database.
    std::filesystem::path home;
    if (const char* env = std::getenv("HOME"); env != nullptr && *env != '\0') {
      home = env;
    } else if (const passwd* entry = getpwuid(getuid()); entry != nullptr && entry->pw_dir != nullptr) {
      home = entry->pw_dir;
    }
    base = home / ".local" / "share";
  }
  return base / "csbench" / "tune.sqlite";
}

TuneCache::TuneCache(const std::filesystem::path& path) : path_(path) {
  try {
    if (path.has_parent_path()) {
      std::error_code error;
      std::filesystem::create_directories(path.parent_path(), error);
      if (error) throw CacheFailure(fmt::format("cannot create its folder: {}", error.message()));
    }
    sqlite3* opened = nullptr;
    const int rc = sqlite3_open_v2(path.c_str(), &opened, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
    db_.reset(opened);  // a handle comes back even where the open failed, to be closed
    if (rc != SQLITE_OK) throw CacheFailure(opened != nullptr ? sqlite3_errmsg(opened) : sqlite3_errstr(rc));
    sqlite3* db = db_.get();
    if (sqlite3_db_readonly(db, "main") == 1) throw CacheFailure("the file is read-only");
    sqlite3_busy_timeout(db, kBusyTimeoutMs);
    // Reading the header is what tells garbage from a database ("file is not a database").
    if (PragmaValue(db, "application_id") == 0 && PragmaValue(db, "user_version") == 0) {
      // Created inside a transaction, with the check again inside it, so that two processes opening
      // a new cache at once make it once.
      Transaction creating(db);
      if (PragmaValue(db, "application_id") == 0 && PragmaValue(db, "user_version") == 0) {
        Statement tables(db, "SELECT COUNT(*) FROM sqlite_master");
        if (tables.Step() && tables.Integer(0) != 0) {
          throw CacheFailure("an SQLite database, but not a csbench tune cache (left as it is)");
        }
        Execute(db, kCreateSchema);
        Execute(db, fmt::format("PRAGMA application_id = {}", kApplicationId).c_str());
        Execute(db, fmt::format("PRAGMA user_version = {}", kSchemaVersion).c_str());
      }
      creating.Commit();
    }
    if (PragmaValue(db, "application_id") != kApplicationId) {
      throw CacheFailure("an SQLite database, but not a csbench tune cache (left as it is)");
    }
    if (const int64_t version = PragmaValue(db, "user_version"); version != kSchemaVersion) {
      throw CacheFailure(
          fmt::format("a csbench tune cache of schema version {}, this csbench reads version {} "
                      "(name another file with --tune-cache)",
                      version, kSchemaVersion));
    }
    {
      // Its table is there (and it finishes before the journal mode can change).
      Statement probe(db, "SELECT COUNT(*) FROM measurements");
      probe.Step();
    }
    // Write-ahead logging lets a search read while another process writes. A file system that
    // cannot hold it keeps the rollback journal, which the busy timeout makes safe, only slower.
    bool wal = false;
    try {
      Statement journal(db, "PRAGMA journal_mode = WAL");
      wal = journal.Step() && journal.Text(0) == "wal";
    } catch (const CacheFailure&) {
      wal = false;
    }
    // In WAL mode a power cut may lose the last stores (they are measured again) but never
    // corrupts the file, so a store need not wait for a flush to the disk.
    if (wal) Execute(db, "PRAGMA synchronous = NORMAL");
  } catch (const std::exception& e) {
    GiveUp(e.what());
  }
}

TuneCache::~TuneCache() = default;
TuneCache::TuneCache(TuneCache&&) noexcept = default;
TuneCache& TuneCache::operator=(TuneCache&&) noexcept = default;

void TuneCache::GiveUp(std::string why) {
  db_.reset();
  problem_ = OneLine(fmt::format("{}: {}", path_.string(), why));
}

std::optional<TuneCacheEntry> TuneCache::Find(const TuneCacheKey& key, std::string_view stage) const {
  if (!usable()) return std::nullopt;
  try {
    return ReadEntry(db_.get(), key, stage);
  } catch (const std::exception&) {
    return std::nullopt;  // a read that fails finds nothing: the point is measured again
  }
}

void TuneCache::Store(const TuneCacheKey& key, std::string_view stage, const TuneCacheEntry& entry) {
  if (!usable()) return;
  try {
    sqlite3* db = db_.get();
    Transaction storing(db);
    TuneCacheEntry merged = entry;
    if (std::optional<TuneCacheEntry> kept = ReadEntry(db, key, stage);
        kept && kept->failure.empty() && entry.failure.empty() && kept->min_time == entry.min_time) {
      merged.gelems = std::move(kept->gelems);
      merged.gelems.insert(merged.gelems.end(), entry.gelems.begin(), entry.gelems.end());
      merged.seconds = std::move(kept->seconds);
      merged.seconds.insert(merged.seconds.end(), entry.seconds.begin(), entry.seconds.end());
      merged.device_seconds += kept->device_seconds;
    }
    Statement insert(db,
                     "INSERT OR REPLACE INTO measurements (device_key, driver, revision, spirv_hash, point, stage, "
                     "gelems, seconds, min_time, device_seconds, failure, measured_unix) "
                     "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    BindKey(insert, key, stage);
    insert.Bind(SamplesText(merged.gelems))
        .Bind(SamplesText(merged.seconds))
        .Bind(merged.min_time)
        .Bind(merged.device_seconds)
        .Bind(merged.failure)
        .Bind(merged.measured_unix);
    insert.Step();
    storing.Commit();
  } catch (const std::exception& e) {
    GiveUp(fmt::format("cannot store {}: {}", key.point, e.what()));
  }
}

size_t TuneCache::Count(const std::string& device_key, const std::string& driver, const std::string& revision) const {
  if (!usable()) return 0;
  try {
    Statement count(db_.get(),
                    "SELECT COUNT(*) FROM (SELECT DISTINCT spirv_hash, point FROM measurements "
                    "WHERE device_key = ? AND driver = ? AND revision = ?)");
    count.Bind(device_key).Bind(driver).Bind(revision);
    return count.Step() ? static_cast<size_t>(count.Integer(0)) : 0;
  } catch (const std::exception&) {
    return 0;
  }
}

}  // namespace csbench
